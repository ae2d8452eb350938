// notifications: drives the app shell's store from the command line against a local inbox.
//
// Standard output carries what a command prints (a table, JSON, a confirmation); errors,
// traces and other diagnostics go to standard error. Exit status: 0 on success, 1 when a
// command fails, 2 when the command line is wrong.
import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import AppShell
import NotificationClients
import Notifications

@MainActor
func main() async -> Int32 {
  let arguments: Arguments
  do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
  } catch {
    reportError(error)
    return error.exitCode
  }
  if arguments.flags.contains("--version") {
    print(Option.versionText)
    return 0
  }
  if let help = help(for: arguments) {
    print(help)
    return 0
  }
  let renderer = Renderer()
  do {
    if arguments.command == "demo" {
      try await runDemo(renderer: renderer, trace: arguments.flags.contains("--trace"))
      return 0
    }
    // The command line is checked before the inbox is opened, so that a mistake changes nothing.
    let maximumEvents =
      try arguments.number("--max-events", in: 1...Int.max, default: Int.max) ?? .max
    var server: Session.Server?
    if let address = arguments.options["--server"] {
      guard let url = URL(string: address), url.scheme == "http" || url.scheme == "https",
        url.host != nil
      else {
        throw CLIError.usage(
          "--server needs an http(s) URL, like http://127.0.0.1:8080, not '\(address)'",
          command: arguments.command)
      }
      guard let command = arguments.command, Session.serverCommands.contains(command) else {
        throw CLIError.usage(
          "'\(arguments.command ?? "--recover")' works on the local inbox only, not with --server; "
            + "the commands that work on a server are \(Session.serverCommands.joined(separator: ", "))",
          command: arguments.command)
      }
      server = Session.Server(url: url, token: arguments.options["--token"])
    } else if arguments.options["--token"] != nil {
      throw CLIError.usage("--token goes with --server URL", command: arguments.command)
    }
    let url =
      arguments.options["--inbox"].map { URL(fileURLWithPath: $0) } ?? LocalInbox.defaultURL()
    let inbox = LocalInbox(url: url)
    if arguments.flags.contains("--recover") {
      let moved: URL?
      do {
        moved = try inbox.recover()
      } catch {
        throw CLIError.failed("\(error)")
      }
      let message =
        moved.map { "The inbox was corrupt: moved it to \($0.path) and started a fresh one." }
        ?? "The inbox is healthy: nothing to recover."
      // Alone, recovering is the command and this its output; before a command it is a note.
      if arguments.command == nil {
        print(message)
        return 0
      }
      FileHandle.standardError.write(Data("\(message)\n".utf8))
    }
    do {
      try inbox.open()
    } catch {
      throw CLIError.failed("\(error)")
    }
    var backend = AppBackend.localInbox(inbox)
    if let server {
      // A database beside the local inbox caches the server's feed (shown at once, and when the
      // server cannot be reached) and keeps the feature's settings and change log for that server
      // and account.
      let cache = LocalInbox(
        url: AppBackend.cacheURL(for: server.url, account: server.token, beside: inbox.url))
      do {
        try cache.open()
      } catch {
        throw CLIError.failed("\(error)")
      }
      var live = NotificationClient.live(baseURL: server.url, token: server.token)
      if arguments.command != "watch" {
        // Only watch follows the live stream; another command would open it after the first
        // page (the feature does, as an app's list on screen would) and close it right away,
        // for nothing. Its catch-up is skipped too: a request cancelled in flight crashes
        // FoundationNetworking on Linux ("a task that is not in the registry").
        live.updates = { _ in
          let (stream, continuation) = AsyncThrowingStream<NotificationEvent, any Error>
            .makeStream()
          continuation.onTermination = { _ in _ = continuation }
          return stream
        }
        live.changesSince = { _ in [] }
      }
      backend = .server(
        live, cachedIn: cache, scope: AppBackend.scope(for: server.url, account: server.token))
    }
    // Only watch follows the feature for as long as it runs; every other command ends when its
    // work is done, leaving a retry after a backoff to the next command.
    let session = Session(
      backend: backend, server: server, trace: arguments.flags.contains("--trace"),
      waitsOutBackoffs: arguments.command == "watch")
    switch arguments.command {
    case "run":
      let path = arguments.positional[0]
      let script: String
      do {
        script = try String(contentsOfFile: path, encoding: .utf8)
      } catch {
        throw CLIError.failed("Cannot read the script \(path): \(describe(fileError: error)).")
      }
      return await runScript(script, session: session, renderer: renderer)
    case "repl":
      return await repl(session: session, renderer: renderer)
    case "watch":
      try await watch(session: session, renderer: renderer, maximumEvents: maximumEvents)
      return 0
    default:
      let output: String
      do {
        output = try await run(arguments, session: session, renderer: renderer)
      } catch {
        reportNotes(session.takeNotes())
        throw error
      }
      print(output)
      reportNotes(session.takeNotes() + [session.unsentNote].compactMap { $0 })
      return 0
    }
  } catch let error as CLIError {
    reportError(error)
    return error.exitCode
  } catch {
    reportError(.failed("\(error)"))
    return 1
  }
}

/// Writes `notes` to standard error, one a line, after what was printed.
func reportNotes(_ notes: [String]) {
  guard !notes.isEmpty else { return }
  fflush(nil)
  FileHandle.standardError.write(Data(notes.map { "\($0)\n" }.joined().utf8))
}

/// Why a file could not be read, in words (not `NSCocoaErrorDomain error 260`).
func describe(fileError error: any Error) -> String {
  switch (error as? CocoaError)?.code {
  case .fileReadNoSuchFile?, .fileNoSuchFile?: return "there is no such file"
  case .fileReadNoPermission?: return "permission denied"
  case .fileReadInapplicableStringEncoding?, .fileReadUnknownStringEncoding?:
    return "it is not UTF-8 text"
  default:
    var isDirectory: ObjCBool = false
    if let path = (error as NSError).userInfo[NSFilePathErrorKey] as? String,
      FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
    {
      return "it is a folder"
    }
    return "it cannot be read"
  }
}

let status = await main()
// What was printed may still sit in the buffer: a write that fails there (a full disk,
// `> /dev/full`) is a failed command, not a silent success.
if fflush(nil) != 0 {
  let reason = String(cString: strerror(errno)).lowercased()
  FileHandle.standardError.write(Data("error: Cannot write the output: \(reason).\n".utf8))
  exit(status == 0 ? 1 : status)
}
exit(status)
