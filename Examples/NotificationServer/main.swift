// notifications-server: a development server for the notifications API on a local inbox.
//
//   notifications-server [--port N] [--inbox PATH] [--token T] [--latency MS] [--fail-rate R]
//                        [--fail-next COUNT:STATUS] [--heartbeat SECONDS] [--max-connections N]
//
// Exit status: 0 when stopped by SIGINT or SIGTERM, 1 when it cannot open its inbox (corrupt,
// empty, unreadable) or cannot listen, 2 when the command line is wrong (an unknown option, a
// missing or malformed value: the error says which).
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

/// The options, each with the placeholder of its value and what it does.
let optionHelp: KeyValuePairs<String, (String, String)> = [
  "--port": ("N", "the port to listen on, 0 to 65535; 0 picks a free one (default 8080)"),
  "--inbox": ("PATH", "the inbox to serve (default: the CLI's default inbox)"),
  "--token": ("T", "answer 401 to requests without Authorization: Bearer T"),
  "--latency": ("MS", "delay every answer by MS milliseconds, 0 to 600000"),
  "--fail-rate": ("R", "answer 503 to a fraction R of requests, 0 to 1"),
  "--fail-next": ("COUNT:STATUS", "answer the next COUNT requests with STATUS (400 to 599)"),
  "--heartbeat": ("SECONDS", "how often an event stream gets a heartbeat (default 15)"),
  "--max-connections": ("N", "connections open at once before answering 503 (default 1024)"),
]
let usage =
  "usage: notifications-server [--port N] [--inbox PATH] [--token T] [--latency MS]"
  + " [--fail-rate R] [--fail-next COUNT:STATUS] [--heartbeat SECONDS] [--max-connections N]\n\n"
  + optionHelp.map { name, value in
    "  \("\(name) \(value.0)".padding(toLength: 28, withPad: " ", startingAt: 0))\(value.1)"
  }.joined(separator: "\n")
  + "\n\nExit status: 0 when stopped by SIGINT or SIGTERM, 1 when it cannot open its inbox or"
  + " cannot listen, 2 when the command line is wrong."

/// Reports a usage error on standard error and exits with status 2.
func refuse(_ message: String) -> Never {
  FileHandle.standardError.write(
    Data("error: \(message)\nRun 'notifications-server --help' for usage.\n".utf8))
  exit(2)
}

/// The option nearest to `name` (a letter or two apart, or one it begins), if any.
func closestOption(to name: String) -> String? {
  // Both are non-empty: each begins with "-".
  func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
  let names = optionHelp.map(\.key)
  let scored = names.map { ($0, distance(Array(name), Array($0))) }
  if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 { return best.0 }
  let stem = name.drop(while: { $0 == "-" })
  return stem.count >= 2 ? names.first { $0.dropFirst(2).hasPrefix(stem) } : nil
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  if argument == "--help" || argument == "-h" {
    print(usage)
    exit(0)
  }
  var name = argument
  var value: String?
  if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
    name = String(argument[..<equals])
    value = String(argument[argument.index(after: equals)...])
  }
  guard name.hasPrefix("-") else { refuse("Unexpected argument '\(argument)': every option is --NAME VALUE") }
  guard optionHelp.contains(where: { $0.key == name }) else {
    let suggestion = closestOption(to: name).map { "; did you mean '\($0)'?" } ?? "."
    refuse(
      "Unknown option '\(name)'\(suggestion)\nThe options are "
        + optionHelp.map(\.key).joined(separator: ", ") + ".")
  }
  if value == nil {
    // An option is never a value: `--port --inbox X` is a missing port, not a port "--inbox".
    guard let next = arguments.first, !next.hasPrefix("--") else { refuse("\(name) needs a value") }
    value = arguments.popFirst()
  }
  options[name] = value
}
guard let port = Int(options["--port"] ?? "8080"), (0...65_535).contains(port) else {
  refuse("--port takes 0 to 65535, not '\(options["--port"] ?? "")'")
}
let inboxURL = options["--inbox"].map { URL(fileURLWithPath: $0) } ?? LocalInbox.defaultURL()
let inbox = LocalInbox(url: inboxURL)
let api = NotificationAPI(inbox: inbox, token: options["--token"])
guard let latency = Int(options["--latency"] ?? "0"), (0...600_000).contains(latency) else {
  refuse("--latency takes milliseconds from 0 to 600000, not '\(options["--latency"] ?? "")'")
}
guard let failRate = Double(options["--fail-rate"] ?? "0"), (0...1).contains(failRate) else {
  refuse("--fail-rate takes a fraction from 0 to 1, like 0.2, not '\(options["--fail-rate"] ?? "")'")
}
var failNext: [Int] = []
if let spec = options["--fail-next"] {
  let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
  guard parts.count == 2, let count = parts[0], let status = parts[1], (0...1_000_000).contains(count),
    (400...599).contains(status)
  else { refuse("--fail-next takes COUNT:STATUS, like 3:503, not '\(spec)'") }
  failNext = Array(repeating: status, count: count)
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
    refuse("--heartbeat takes seconds from 0.01 to 86400")
  }
  configuration.heartbeatInterval = .milliseconds(Int(seconds * 1_000))
}
if let text = options["--max-connections"] {
  guard let count = Int(text), (1...100_000).contains(count) else {
    refuse("--max-connections takes 1 to 100000")
  }
  configuration.maximumConnections = count
}
// The command line is checked first, so that a mistake is a usage error whatever the inbox.
// An inbox that cannot be opened is refused now, not answered 500 to every request.
do {
  try inbox.open()
} catch {
  let message: String
  switch error {
  case .corrupt(let path, let reason):
    message =
      "The inbox file \(path) is corrupt: \(reason). It was left untouched; run "
      + "'notifications --recover --inbox \(path)' to move it aside, then start the server again."
  case .empty(let path):
    message =
      "The inbox file \(path) is empty. It was left untouched; run "
      + "'notifications --recover --inbox \(path)' to start a fresh inbox, then start the server again."
  default:
    message = "\(error)"
  }
  FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  exit(1)
}
let server = HTTPServer(port: port, configuration: configuration, handler: api.handle)
let actualPort: Int
do {
  actualPort = try server.start()
} catch {
  let reason: String
  switch error {
  case ServerError.socket(let text) where text == String(cString: strerror(EADDRINUSE)):
    reason = "it is in use; pick another with --port (0 picks a free one)"
  case ServerError.socket(let text) where text == String(cString: strerror(EACCES)):
    reason = "permission denied; ports below 1024 need privileges, so pick another with --port"
  case ServerError.socket(let text):
    reason = text.prefix(1).lowercased() + text.dropFirst()
  default:
    reason = "\(error)"
  }
  FileHandle.standardError.write(Data("error: Cannot listen on port \(port): \(reason).\n".utf8))
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
