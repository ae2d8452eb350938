// notifications: drives the app shell's store from the command line against a local inbox.
import Foundation
import NotificationClients
import NotificationFeature

@MainActor
func main() async -> Int32 {
  let arguments: Arguments
  do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
  } catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    return error.exitCode
  }
  if arguments.flags.contains("--help") || arguments.command == "help" {
    print(usage)
    return 0
  }
  let renderer = Renderer()
  do {
    if arguments.command == "demo" {
      try await runDemo(renderer: renderer)
      return 0
    }
    let url = arguments.options["--inbox"].map { URL(fileURLWithPath: $0) } ?? LocalInbox.defaultURL()
    let inbox = LocalInbox(url: url)
    if arguments.flags.contains("--recover") {
      do {
        let moved = try inbox.recover()
        print(
          moved.map { "The inbox was corrupt: moved it to \($0.path) and started a fresh one." }
            ?? "The inbox is healthy: nothing to recover.")
      } catch {
        throw CLIError.failed("\(error)")
      }
      if arguments.command == nil { return 0 }
    }
    do {
      try inbox.open()
    } catch {
      throw CLIError.failed("\(error)")
    }
    var client: NotificationClient?
    var sessionInbox = inbox
    if let server = arguments.options["--server"] {
      guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https" else {
        throw CLIError.usage("--server needs an http(s) URL")
      }
      guard ["list", "show", "read", "unread", "delete", "clear", "tap", "open"].contains(arguments.command ?? "") else {
        throw CLIError.usage("'\(arguments.command ?? "")' works on the local inbox only, not with --server")
      }
      // A database beside the local inbox caches the server's feed (shown at once, and when the
      // server cannot be reached) and keeps the feature's settings for that server.
      let cache = LocalInbox(url: serverCacheURL(for: url, beside: inbox.url))
      do {
        try cache.open()
      } catch {
        throw CLIError.failed("\(error)")
      }
      client = cache.caching(.live(baseURL: url, token: arguments.options["--token"]))
      sessionInbox = cache
    }
    let session = Session(
      inbox: sessionInbox, client: client, trace: arguments.flags.contains("--trace"))
    switch arguments.command {
    case "run":
      guard let path = arguments.positional.first,
        let script = try? String(contentsOfFile: path, encoding: .utf8)
      else { throw CLIError.usage("'run' needs a readable script file") }
      return try await runScript(
        script.split(separator: "\n").map(String.init), session: session, renderer: renderer)
    case "repl":
      var lines: [String] = []
      print("notifications> ", terminator: "")
      while let line = readLine() {
        lines = [line]
        _ = try? await runScript(lines, session: session, renderer: renderer, stopOnError: false)
        print("notifications> ", terminator: "")
      }
      print("")
      return 0
    case "watch":
      let limit = Int(arguments.options["--max-events"] ?? "") ?? .max
      try await watch(session: session, renderer: renderer, maximumEvents: limit)
      return 0
    default:
      print(try await run(arguments, session: session, renderer: renderer))
      return 0
    }
  } catch let error as CLIError {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    return error.exitCode
  } catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    return 1
  }
}

/// The offline cache of a server's feed: `server-HOST-PORT.sqlite` beside the local inbox.
func serverCacheURL(for server: URL, beside inbox: URL) -> URL {
  let host = (server.host ?? "server").map { $0.isLetter || $0.isNumber ? $0 : "-" }
  let port = server.port.map { "-\($0)" } ?? ""
  return inbox.deletingLastPathComponent()
    .appendingPathComponent("server-\(String(host))\(port).sqlite")
}

exit(await main())
