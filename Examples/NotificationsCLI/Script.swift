import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Notifications

/// Runs the lines of a script (`run`) against one session, one command per line; `#` starts a
/// comment. Stops at the first failing line, whose number the error names, and returns its
/// exit status.
@MainActor
func runScript(_ text: String, session: Session, renderer: Renderer) async -> Int32 {
  for (index, line) in lines(of: text).enumerated() {
    if let status = await runLine(line, number: index + 1, session: session, renderer: renderer),
      status != 0
    {
      return status
    }
  }
  return 0
}

/// The lines of a script or of piped input: LF, CRLF or CR line ends.
func lines(of text: String) -> [Substring] {
  // "\r\n" is one Character, which is a newline.
  text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
}

/// Runs one line of a script or the repl; `number` labels its errors when given. Returns nil
/// for a blank or comment line, else the line's exit status (its error already reported).
@MainActor
func runLine(
  _ line: some StringProtocol, number: Int?, session: Session, renderer: Renderer
) async -> Int32? {
  let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
  guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
  do {
    let arguments = try Arguments(try words(trimmed), context: .script)
    if let text = help(for: arguments) {
      print(text)
    } else {
      print(try await run(arguments, session: session, renderer: renderer))
    }
    reportNotes(session.takeNotes())
    return 0
  } catch {
    reportNotes(session.takeNotes())
    reportError(error, line: number)
    // The next line starts clean: an error the feature shows would fail it too.
    if session.feature.error != nil { await session.send(.dismissError) }
    return error.exitCode
  }
}

/// The help `arguments` asks for (`--help`, `help`, `help COMMAND`), if any.
func help(for arguments: Arguments) -> String? {
  if arguments.flags.contains("--help") {
    return arguments.command.flatMap { name in CommandSpec.all.first { $0.name == name } }?.help
      ?? usage
  }
  guard arguments.command == "help" else { return nil }
  return arguments.positional.first.flatMap { name in CommandSpec.all.first { $0.name == name } }?
    .help
    ?? usage
}

/// Writes `error: …` to standard error; `line` names the script line it came from.
func reportError(_ error: CLIError, line: Int? = nil) {
  // What was printed before the error comes before it, when both go to one place.
  fflush(nil)
  let label = line.map { "line \($0): " } ?? ""
  FileHandle.standardError.write(Data("error: \(label)\(error)\n".utf8))
}

/// Splits a line into words: at spaces; "double" or 'single' quotes keep a phrase together
/// (a backslash escapes a double quote or a backslash inside double quotes); a JSON object or
/// array (a word starting with `{` or `[`) is one word, quotes and spaces included, up to its
/// closing bracket.
func words(_ line: String) throws(CLIError) -> [String] {
  var words: [String] = []
  var characters = Array(line)[...]
  while let first = characters.first {
    if first.isWhitespace {
      characters.removeFirst()
      continue
    }
    var word = ""
    if first == "{" || first == "[" {
      word = try json(&characters)
    }
    while let character = characters.first, !character.isWhitespace {
      characters.removeFirst()
      switch character {
      case "\"", "'":
        var closed = false
        while let inner = characters.popFirst() {
          if inner == character {
            closed = true
            break
          }
          if character == "\"", inner == "\\", let escaped = characters.first,
            escaped == "\"" || escaped == "\\"
          {
            characters.removeFirst()
            word.append(escaped)
          } else {
            word.append(inner)
          }
        }
        guard closed else { throw .usage("A \(character) quote is not closed") }
      default:
        word.append(character)
      }
    }
    words.append(word)
  }
  return words
}

/// Takes a JSON object or array off the front of `characters`: up to its closing bracket,
/// skipping brackets inside JSON strings.
private func json(_ characters: inout ArraySlice<Character>) throws(CLIError) -> String {
  var word = ""
  var depth = 0
  var inString = false
  var escaped = false
  while let character = characters.popFirst() {
    word.append(character)
    if inString {
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        inString = false
      }
      continue
    }
    switch character {
    case "\"": inString = true
    case "{", "[": depth += 1
    case "}", "]":
      depth -= 1
      if depth == 0 { return word }
    default: break
    }
  }
  throw .usage("The JSON on this line is not closed (a missing } or ])")
}

/// Reads commands from standard input, one per line, until end of input, `exit` or `quit`.
/// Shows a prompt only when a person types (standard input is a terminal); piped lines' errors
/// name their line.
@MainActor
func repl(session: Session, renderer: Renderer) async -> Int32 {
  let interactive = isatty(STDIN_FILENO) == 1
  func prompt() {
    guard interactive else { return }
    print("notifications> ", terminator: "")
    fflush(nil)
  }
  if interactive {
    print("Type a command ('help' lists them; 'exit', 'quit' or Ctrl-D leaves).")
  }
  prompt()
  var number = 0
  while let line = readLine(strippingNewline: true) {
    number += 1
    let command = line.trimmingCharacters(in: .whitespacesAndNewlines)
    if command == "exit" || command == "quit" { return 0 }
    if command == "help" {
      print(replHelp)
    } else {
      _ = await runLine(
        line, number: interactive ? nil : number, session: session, renderer: renderer)
    }
    fflush(nil)
    prompt()
  }
  if interactive { print("") }
  return 0
}

let replHelp = """
  \(CommandSpec.overview(CommandSpec.all.filter { !CommandSpec.sessionCommands.contains($0.name) }))
    exit, quit              leave (so does Ctrl-D)

  'help COMMAND' or 'COMMAND --help' describes one command.
  """

/// Follows the live stream: prints each notification that appears or changes, one line each,
/// flushed as it happens (into a pipe too: `watch | grep …`), until `maximumEvents` changes.
@MainActor
func watch(session: Session, renderer: Renderer, maximumEvents: Int) async throws(CLIError) {
  // The first page, as an app shows it: the changes that follow are printed as they happen.
  // (Loading every page first cost 25 s at 100,000.)
  try await session.load(.firstPage)
  var known = Dictionary(
    uniqueKeysWithValues: session.feature.shown.map { ($0.id, $0) })
  let count = known.count
  FileHandle.standardError.write(
    Data("Watching \(count) notification\(count == 1 ? "" : "s") (Ctrl-C to stop)…\n".utf8))
  let task = session.store.send(.notifications(.onAppear))
  defer { task.cancel() }
  var events = 0
  for await state in session.store.states {
    for notification in state.notifications.shown where known[notification.id] != notification {
      let verb = known[notification.id] == nil ? "new" : "changed"
      known[notification.id] = notification
      print("\(verb): " + renderer.table([notification]))
      fflush(nil)
      events += 1
    }
    for id in Set(known.keys).subtracting(state.notifications.shown.ids) {
      known[id] = nil
      print("deleted: \(id)")
      fflush(nil)
      events += 1
    }
    if events >= maximumEvents { return }
  }
}
