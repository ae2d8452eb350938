// notifications-server: a development server for the notifications API on a local inbox.
//
//   notifications-server [--port N] [--inbox PATH] [--token T] [--latency MS] [--fail-rate R]
//                        [--fail-next COUNT:STATUS] [--heartbeat SECONDS] [--max-connections N]
//
// `--heartbeat` is how often an event stream gets a `: heartbeat` comment (15 s by default);
// `--max-connections` how many connections are open at once before the server answers 503
// (1,024 by default). Docs/HTTP-API.md lists every limit.
//
// The first line printed is `listening on http://127.0.0.1:PORT`. It stops on SIGINT/SIGTERM.
import Dispatch
import Foundation
import NotificationClients
import NotificationServerCore

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  if argument == "--help" || argument == "-h" {
    print(
      "usage: notifications-server [--port N] [--inbox PATH] [--token T] [--latency MS]"
        + " [--fail-rate R] [--fail-next COUNT:STATUS] [--heartbeat SECONDS] [--max-connections N]")
    exit(0)
  }
  guard argument.hasPrefix("--"), let value = arguments.popFirst() else {
    FileHandle.standardError.write(Data("error: unexpected argument \(argument)\n".utf8))
    exit(64)
  }
  options[argument] = value
}
guard let port = Int(options["--port"] ?? "8080"), (0...65_535).contains(port) else {
  FileHandle.standardError.write(Data("error: --port must be 0 to 65535\n".utf8))
  exit(64)
}
let inboxURL = options["--inbox"].map { URL(fileURLWithPath: $0) } ?? LocalInbox.defaultURL()
let api = NotificationAPI(inbox: LocalInbox(url: inboxURL), token: options["--token"])
let latency = Int(options["--latency"] ?? "0") ?? 0
let failRate = Double(options["--fail-rate"] ?? "0") ?? 0
var failNext: [Int] = []
if let spec = options["--fail-next"] {
  let parts = spec.split(separator: ":").compactMap { Int($0) }
  guard parts.count == 2, parts[0] >= 0, (400...599).contains(parts[1]) else {
    FileHandle.standardError.write(Data("error: --fail-next takes COUNT:STATUS, like 3:503\n".utf8))
    exit(64)
  }
  failNext = Array(repeating: parts[1], count: parts[0])
}
let faults = (latency, failRate, failNext)
api.updateFaults {
  $0.latency = .milliseconds(faults.0)
  $0.failRate = faults.1
  $0.failNext = faults.2
}
var configuration = HTTPServer.Configuration()
if let text = options["--heartbeat"] {
  guard let seconds = Double(text), seconds >= 0.01, seconds <= 86_400 else {
    FileHandle.standardError.write(Data("error: --heartbeat takes seconds from 0.01 to 86400\n".utf8))
    exit(64)
  }
  configuration.heartbeatInterval = .milliseconds(Int(seconds * 1_000))
}
if let text = options["--max-connections"] {
  guard let count = Int(text), (1...100_000).contains(count) else {
    FileHandle.standardError.write(Data("error: --max-connections takes 1 to 100000\n".utf8))
    exit(64)
  }
  configuration.maximumConnections = count
}
let server = HTTPServer(port: port, configuration: configuration, handler: api.handle)
let actualPort: Int
do {
  actualPort = try server.start()
} catch {
  FileHandle.standardError.write(Data("error: cannot listen on port \(port): \(error)\n".utf8))
  exit(1)
}
FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(actualPort)\n".utf8))

signal(SIGPIPE, SIG_IGN)
signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let sources = [SIGINT, SIGTERM].map { number in
  let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
  source.setEventHandler {
    server.stop()
    exit(0)
  }
  source.resume()
  return source
}
withExtendedLifetime(sources) { dispatchMain() }
