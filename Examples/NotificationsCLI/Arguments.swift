import Foundation
import Notifications

/// The parsed command line: a command, its positional arguments and its options, checked
/// against the command's ``CommandSpec``: an unknown command or option, a missing or malformed
/// value, or a wrong number of arguments is a usage error (exit status 2) that says what is
/// valid and suggests the closest match.
struct Arguments {
  var command: String?
  var positional: [String] = []
  var options: [String: String] = [:]
  var flags: Set<String> = []

  /// Parses and checks `arguments`; `context` says where they come from (the command line or
  /// a script line), which decides the options a line may not change.
  init(_ arguments: [String], context: Context = .commandLine) throws(CLIError) {
    var index = 0
    var named: [(name: String, value: String?)] = []
    var endOfOptions = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if endOfOptions || argument == "-" || !argument.hasPrefix("-") {
        if command == nil { command = argument } else { positional.append(argument) }
        continue
      }
      if argument == "--" {
        endOfOptions = true
        continue
      }
      if argument == "-h" {
        named.append(("--help", nil))
        continue
      }
      if let equals = argument.firstIndex(of: "=") {
        named.append(
          (String(argument[..<equals]), String(argument[argument.index(after: equals)...])))
        continue
      }
      // A value follows an option that takes one; an option is never a value (`--port --inbox X`).
      if Option.valued.contains(argument) {
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
          throw .usage(
            "\(argument) needs a value\(Option.named(argument)?.valueHint ?? "")", command: nil)
        }
        named.append((argument, arguments[index]))
        index += 1
      } else {
        named.append((argument, nil))
      }
    }

    if named.contains(where: { $0.name == "--version" }) {
      guard command == nil, named.count == 1 else {
        throw .usage("--version goes alone: 'notifications --version'", command: nil)
      }
      flags.insert("--version")
      return
    }
    if named.contains(where: { $0.name == "--help" }) {
      flags.insert("--help")
      // `notifications help list` and `notifications list --help` show one command's help; an
      // unknown command, or an option the command does not take, is still an error.
      if let command, command != "help" {
        try Self.check(named, for: try Self.spec(for: command), context: context)
      }
      return
    }
    guard let command else {
      guard named.contains(where: { $0.name == "--recover" }) else {
        throw .usage("No command given", command: nil)
      }
      // `--recover` alone is a command of its own.
      try Self.check(named, for: .recover, context: context)
      for (name, value) in named {
        if let value { options[name] = value } else { flags.insert(name) }
      }
      return
    }
    let spec = try Self.spec(for: command)
    if spec.name == "help" {
      guard positional.count <= 1 else {
        throw .usage("'help' takes at most one command", command: nil)
      }
      if let topic = positional.first { _ = try Self.spec(for: topic) }
      return
    }
    if case .script = context, CommandSpec.sessionCommands.contains(spec.name) {
      throw .usage("'\(spec.name)' cannot run inside a script or the repl: run it on its own")
    }
    try Self.check(named, for: spec, context: context)
    for (name, value) in named {
      if let value { options[name] = value } else { flags.insert(name) }
    }
    guard spec.arguments.contains(positional.count) else {
      throw .usage(spec.argumentProblem(positional.count), command: spec.name)
    }
    if spec.name == "read", flags.contains("--all"), !positional.isEmpty {
      throw .usage("'read' takes a notification id or --all, not both", command: spec.name)
    }
    // An id is checked here, before anything is opened: an empty one, `.` or `..` would name
    // every notification on a server.
    for position in spec.idPositions where position < positional.count {
      let id = positional[position]
      do {
        try NotificationData.checkID(id)
      } catch {
        throw .usage("'\(id.prefix(40))' is not an id: \(error)", command: spec.name)
      }
    }
  }

  /// Where arguments come from.
  enum Context {
    /// The process's command line.
    case commandLine
    /// One line of a `run` script or the repl, in a session opened already.
    case script
  }

  static func spec(for command: String) throws(CLIError) -> CommandSpec {
    if let spec = CommandSpec.all.first(where: { $0.name == command }) { return spec }
    let names = CommandSpec.all.map(\.name)
    let suggestion = closest(to: command, in: names).map { "; did you mean '\($0)'?" } ?? "."
    throw .usage(
      "Unknown command '\(command)'\(suggestion)\nThe commands are \(names.joined(separator: ", ")).",
      command: nil)
  }

  static func check(
    _ named: [(name: String, value: String?)], for spec: CommandSpec, context: Context
  ) throws(CLIError) {
    let allowed = spec.allOptions
    var seen: Set<String> = []
    for (name, value) in named {
      // `--type alert --type ping` would keep one of them, silently.
      guard seen.insert(name).inserted else {
        throw .usage("\(name) is given twice; give it once", command: spec.name)
      }
      guard let option = allowed.first(where: { $0.name == name }) else {
        let names = allowed.map(\.name)
        let suggestion = closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? "."
        let valid =
          names.isEmpty
          ? "'\(spec.name)' takes no options."
          : "'\(spec.name)' takes \(names.joined(separator: ", "))."
        throw .usage(
          "Unknown option '\(name)' for '\(spec.name)'\(suggestion)\n\(valid)", command: spec.name)
      }
      if case .script = context, Option.session.contains(option.name) {
        throw .usage(
          "\(name) applies to the whole session: pass it to 'run' or 'repl', not to one line",
          command: nil)
      }
      switch (option.value, value) {
      case (nil, _?): throw .usage("\(name) takes no value", command: spec.name)
      case (_?, ""?): throw .usage("\(name) needs a value\(option.valueHint)", command: spec.name)
      default: break
      }
    }
  }

  /// The candidate nearest to `word` (case-insensitively, at most a third of its letters
  /// apart, or one it begins), if any.
  static func closest(to word: String, in candidates: [String]) -> String? {
    let lowered = word.lowercased()
    let scored = candidates.map { candidate -> (String, Int) in
      let distance = editDistance(lowered, candidate.lowercased())
      return (candidate, distance)
    }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let letters = word.drop(while: { $0 == "-" }).count
    if best.1 <= max(1, letters / 3) { return best.0 }
    let stripped = lowered.drop(while: { $0 == "-" })
    if stripped.count >= 2,
      let prefixed = candidates.first(where: {
        $0.lowercased().drop(while: { $0 == "-" }).hasPrefix(stripped)
      })
    {
      return prefixed
    }
    return nil
  }

  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    // Optimal string alignment: insertions, deletions, substitutions and swaps of neighbours.
    var beforePrevious: [Int] = []
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      beforePrevious = previous
      previous = current
    }
    return previous[b.count]
  }

  // MARK: Checked values

  /// `--type`'s notification type: one of the known types, or a usage error that lists them.
  func type() throws(CLIError) -> NotificationType? {
    guard let text = options["--type"] else { return nil }
    let type = NotificationType(rawValue: text)
    if !NotificationType.knownCases.contains(type) {
      let names = NotificationType.knownCases.map(\.rawValue)
      let suggestion = Self.closest(to: text, in: names).map { "; did you mean '\($0)'?" } ?? "."
      throw .usage(
        "Unknown type '\(text)'\(suggestion)\nThe types are \(names.joined(separator: ", ")).",
        command: command)
    }
    return type
  }

  /// A whole number option in `range`, `fallback` when it is not given.
  func number(_ name: String, in range: ClosedRange<Int>, default fallback: Int?) throws(CLIError)
    -> Int?
  {
    guard let text = options[name] else { return fallback }
    guard let value = Int(text), range.contains(value) else {
      let bounds =
        range.upperBound == .max
        ? "a whole number from \(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
      throw .usage("\(name) takes \(bounds), not '\(text)'", command: command)
    }
    return value
  }
}

/// An option: its name, the placeholder of its value (nil for a flag) and what it does.
struct Option {
  var name: String
  var value: String?
  var help: String

  var synopsis: String { value.map { "\(name) \($0)" } ?? name }

  /// What an option's value looks like, for "needs a value" errors.
  var valueHint: String {
    switch name {
    case "--type": " (\(NotificationType.knownCases.map(\.rawValue).joined(separator: ", ")))"
    default: value.map { " (\($0))" } ?? ""
    }
  }

  static let inbox = Option(
    name: "--inbox", value: "PATH",
    help: "the inbox file (default: $XDG_DATA_HOME/loom-notifications/inbox.sqlite)")
  static let server = Option(
    name: "--server", value: "URL",
    help: "use a notifications server (see notifications-server) instead of the local inbox")
  static let token = Option(
    name: "--token", value: "TOKEN", help: "the server's token (with --server)")
  static let recover = Option(
    name: "--recover", value: nil, help: "move a corrupt inbox file aside and start a fresh one")
  static let trace = Option(
    name: "--trace", value: nil,
    help: "print every action and the state change it caused, on stderr")
  static let help = Option(name: "--help", value: nil, help: "show this help (also -h)")
  static let version = Option(name: "--version", value: nil, help: "print the version and exit")
  static let json = Option(
    name: "--json", value: nil, help: "print JSON (stays valid JSON: diagnostics go to stderr)")

  /// `--json`, as the overview of every command describes it.
  static let jsonOverview = Option(
    name: "--json", value: nil, help: "machine-readable output (list, show)")

  /// The options every command on an inbox takes.
  static let global: [Option] = [inbox, server, token, recover, trace, help]
  /// The options that open the session: a script line or repl line cannot change them.
  static let session: Set<String> = ["--inbox", "--server", "--token", "--recover", "--trace"]

  /// The version `--version` prints.
  static let versionText = "notifications 0.23.0 (Loom, Swift 6)"

  static var valued: Set<String> {
    Set((CommandSpec.all.flatMap(\.allOptions) + global).filter { $0.value != nil }.map(\.name))
  }

  static func named(_ name: String) -> Option? {
    (CommandSpec.all.flatMap(\.allOptions) + global).first { $0.name == name }
  }
}

/// What a command takes and what its help says.
struct CommandSpec {
  var name: String
  /// The arguments after the command's name, as its usage line shows them.
  var synopsis: String
  var summary: String
  var options: [Option] = []
  /// How many positional arguments it takes.
  var arguments: ClosedRange<Int> = 0...0
  /// What it does, at more length, for `--help`.
  var details: String?
  /// Whether it takes the global options (every command on an inbox does; `demo` and `help` do not).
  var takesGlobalOptions = true
  /// The positions of its arguments that are ids (of a notification, or of an entity for
  /// `open`), checked as ``NotificationData/checkID(_:)`` says.
  var idPositions: [Int] = []

  var allOptions: [Option] {
    takesGlobalOptions ? options + Option.global : options + [Option.help]
  }

  func argumentProblem(_ count: Int) -> String {
    switch (arguments.lowerBound, arguments.upperBound) {
    case (0, 0): "'\(name)' takes no arguments, but was given \(count)"
    case (1, 1) where synopsis == "ID" && count == 0: "'\(name)' needs a notification id"
    case (1, 1) where synopsis == "ID":
      "'\(name)' takes one notification id, but was given \(count) arguments"
    case (let low, _) where count < low: "'\(name)' needs \(synopsis)"
    default: "'\(name)' takes \(synopsis), but was given \(count) arguments"
    }
  }

  /// `notifications COMMAND --help`.
  var help: String {
    var lines = [
      "USAGE: notifications \(name)\(synopsis.isEmpty ? "" : " \(synopsis)")", "",
      details ?? summary,
    ]
    if !options.isEmpty {
      lines += ["", "OPTIONS"] + Self.rows(options)
    }
    if takesGlobalOptions {
      lines += ["", "GLOBAL OPTIONS"] + Self.rows(Option.global)
    } else {
      lines += (options.isEmpty ? ["", "OPTIONS"] : []) + Self.rows([Option.help])
    }
    return lines.joined(separator: "\n")
  }

  /// One or two lines for each command: its usage and what it does.
  static func overview(_ specs: [CommandSpec]) -> String {
    specs.map { spec in
      let left = "  " + ([spec.name, spec.synopsis].filter { !$0.isEmpty }.joined(separator: " "))
      return left.count > 24
        ? left + "\n" + String(repeating: " ", count: 26) + spec.summary
        : left.padding(toLength: 26, withPad: " ", startingAt: 0) + spec.summary
    }.joined(separator: "\n")
  }

  static func rows(_ options: [Option]) -> [String] {
    options.map { option in
      let left = "  " + option.synopsis
      return left.padding(toLength: max(left.count + 2, 18), withPad: " ", startingAt: 0)
        + option.help
    }
  }

  /// The commands that run a session of their own: not a line of a script.
  static let sessionCommands: Set<String> = ["demo", "run", "repl", "watch"]

  /// `--recover` alone.
  static let recover = CommandSpec(name: "--recover", synopsis: "", summary: "")

  static let all: [CommandSpec] = [
    CommandSpec(
      name: "demo", synopsis: "[--trace]",
      summary: "play a scripted session on a fresh temporary inbox",
      options: [Option.trace],
      details: """
        Play a scripted session on a fresh temporary inbox: a push arriving, a tap, mark-all-read,
        a change the server refuses, one kept in the change log through a network error, and a
        relaunch. Each section says what happened and what the person sees. With --trace, every action and the
        state change it caused are printed on stderr too.
        """,
      takesGlobalOptions: false),
    CommandSpec(
      name: "list", synopsis: "[--all] [--type TYPE] [--unread] [--json]",
      summary: "list notifications, newest first",
      options: [
        Option(name: "--all", value: nil, help: "list every notification, not only the first page"),
        Option(
          name: "--type", value: "TYPE",
          help:
            "only this type: \(NotificationType.knownCases.map(\.rawValue).joined(separator: ", "))"
        ),
        Option(name: "--unread", value: nil, help: "only unread notifications"),
        Option.json,
      ],
      details: """
        List notifications, newest first: the first page, or every one with --all. With
        --type or --unread, the first page of those that pass (asked of the backend, so it
        costs the same however many do not), or every one that passes with --all. The lines after the list say how many are unread and which
        contacts, alerts and pings have unread notifications.

        \(glyphLegend)
        """),
    CommandSpec(
      name: "show", synopsis: "ID", summary: "show one notification", options: [Option.json],
      arguments: 1...1, idPositions: [0]),
    CommandSpec(
      name: "read", synopsis: "ID | --all", summary: "mark one (or every) notification read",
      options: [Option(name: "--all", value: nil, help: "mark every notification read")],
      arguments: 0...1, idPositions: [0]),
    CommandSpec(
      name: "unread", synopsis: "ID", summary: "mark a notification unread", arguments: 1...1,
      idPositions: [0]),
    CommandSpec(
      name: "delete", synopsis: "ID", summary: "delete a notification", arguments: 1...1,
      idPositions: [0]),
    CommandSpec(name: "clear", synopsis: "", summary: "delete every notification"),
    CommandSpec(
      name: "push", synopsis: "JSON | --file FILE",
      summary: "deliver a push payload (APNs or FCM shaped JSON)",
      options: [Option(name: "--file", value: "FILE", help: "read the payload from FILE")],
      arguments: 0...1,
      details: """
        Deliver a push payload (APNs or FCM shaped JSON). It stays listed until deleted, kept
        in the inbox's change log until the feed has it.
        """),
    CommandSpec(
      name: "tap", synopsis: "ID", summary: "tap a notification and print where the app navigates",
      arguments: 1...1, idPositions: [0]),
    CommandSpec(
      name: "open", synopsis: "contact|alert|ping ID",
      summary: "open an entity's screen: marks everything about it read", arguments: 2...2,
      idPositions: [1]),
    CommandSpec(
      name: "notice", synopsis: "TITLE [MESSAGE]",
      summary: "record a silent local notice (kept on this device only)", arguments: 1...Int.max),
    CommandSpec(
      name: "seed", synopsis: "[--count N]", summary: "add N sample notifications (default 10)",
      options: [Option(name: "--count", value: "N", help: "how many, 1 to 10000 (default 10)")]),
    CommandSpec(
      name: "watch", synopsis: "[--max-events N]",
      summary: "follow the live stream and print each change",
      options: [Option(name: "--max-events", value: "N", help: "stop after N changes")],
      details: """
        Follow the live stream and print each change, one line each as it happens (also into a
        pipe). The line saying what is watched goes to stderr. Ctrl-C stops.
        """),
    CommandSpec(
      name: "run", synopsis: "SCRIPT",
      summary: "run one command per line (e.g. \"read n1\"), for reproducible sessions",
      arguments: 1...1,
      details: """
        Run one command per line of SCRIPT (e.g. "read n1") on one session, stopping at the
        first line that fails; '#' starts a comment. Words split at spaces; "double" or 'single'
        quotes keep a phrase together, and a JSON object or array is one word, so
        push {"id":"n1","title":"Hi there"} works as written. The session's options (--inbox,
        --server, --token, --trace) go on the 'run' command, not on a line.
        """),
    CommandSpec(
      name: "repl", synopsis: "",
      summary: "type commands; with --trace, see each action's state change",
      details: """
        Type commands, one per line, on one session: 'help' lists them, 'exit' or 'quit' (or
        Ctrl-D) leaves. Lines are split as in 'run'. With --trace, each action's state change
        is printed on stderr.
        """),
    CommandSpec(
      name: "help", synopsis: "[COMMAND]", summary: "show the help of every command or one",
      arguments: 0...1, takesGlobalOptions: false),
  ]
}

/// A failure the CLI reports on standard error: a usage error exits with 2, any other with 1.
enum CLIError: Error, CustomStringConvertible {
  /// The command line is wrong; `command` names the command whose help to point to.
  case usage(String, command: String? = nil)
  case failed(String)

  var description: String {
    switch self {
    case .usage(let message, let command):
      "\(message)\nRun 'notifications \(command.map { "\($0) " } ?? "")--help' for usage."
    case .failed(let message): message
    }
  }

  var exitCode: Int32 {
    switch self {
    case .usage: 2
    case .failed: 1
    }
  }
}

let usage = """
  notifications: a notification center in your terminal, built on Loom.

  USAGE: notifications <command> [options]

  COMMANDS
  \(CommandSpec.overview(CommandSpec.all))

  OPTIONS
  \(CommandSpec.rows(Option.global + [Option.jsonOverview, Option.version]).joined(separator: "\n"))

  \(glyphLegend)

  'notifications COMMAND --help' describes one command. With --server URL, list, show, read,
  unread, delete, clear, tap and open work on the server (its feed is cached beside the inbox).
  Exit status: 0 on success, 1 when a command fails, 2 when the command line is wrong.
  """

/// What the marks at the start of each line of a list mean (in `--help`, `list --help` and
/// README).
let glyphLegend = """
  IN A LIST
    ●   unread                          !!  high priority
    !   alert     @  ping     R  role     +  added     -  removed
    ✓   check-in  i  system   ?  a type this version does not know
    (local)  a notice kept on this device only
  """
