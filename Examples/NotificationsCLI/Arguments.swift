import Foundation

/// The parsed command line: a command, its positional arguments and its options.
struct Arguments {
  var command: String?
  var positional: [String] = []
  var options: [String: String] = [:]
  var flags: Set<String> = []

  /// Options that take a value.
  static let valued: Set<String> = [
    "--inbox", "--type", "--file", "--count", "--server", "--token", "--max-events",
  ]

  init(_ arguments: [String]) throws(CLIError) {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument.hasPrefix("--") {
        if let equals = argument.firstIndex(of: "=") {
          options[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        } else if Self.valued.contains(argument) {
          guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
            throw .usage("\(argument) needs a value")
          }
          options[argument] = arguments[index + 1]
          index += 1
        } else {
          flags.insert(argument)
        }
      } else if argument == "-h" {
        flags.insert("--help")
      } else if command == nil {
        command = argument
      } else {
        positional.append(argument)
      }
      index += 1
    }
  }
}

/// A failure the CLI reports on standard error with a non-zero exit code.
enum CLIError: Error, CustomStringConvertible {
  case usage(String)
  case failed(String)

  var description: String {
    switch self {
    case .usage(let message): "\(message)\nRun 'notifications --help' for usage."
    case .failed(let message): message
    }
  }

  var exitCode: Int32 {
    switch self {
    case .usage: 64
    case .failed: 1
    }
  }
}

let usage = """
  notifications: a notification center in your terminal, built on Loom.

  USAGE: notifications <command> [options]

  COMMANDS
    demo                    play a scripted session on a fresh temporary inbox
    list [--all] [--type T] [--unread] [--json]
                            list notifications, newest first: the first page, or
                            every one with --all (a filter lists from every one)
    show ID                 show one notification
    read ID | --all         mark one (or every) notification read
    unread ID               mark a notification unread
    delete ID               delete a notification
    clear                   delete every notification
    push JSON | --file F    deliver a push payload (APNs or FCM shaped JSON); it stays listed
                            until deleted, kept with the inbox's settings until the feed has it
    tap ID                  tap a notification and print where the app navigates
    open contact|alert|ping ID
                            open an entity's screen: marks everything about it read
    notice TITLE [MESSAGE]  record a silent local notice (kept on this device only)
    seed [--count N]        add N sample notifications (default 10)
    watch [--max-events N]  follow the live stream and print each change
    run SCRIPT              run one command per line (e.g. "read n1"), for reproducible sessions
    repl                    type commands; with --trace, see each action's state change

  OPTIONS
    --inbox PATH            the inbox file (default: $XDG_DATA_HOME/loom-notifications/inbox.json)
    --server URL --token T  use a notifications server (see notifications-server) instead of
                            the local inbox, for list, show, read, unread, delete, clear, tap, open
    --recover               move a corrupt inbox file aside and start a fresh one
    --trace                 print every action with the state change it caused
    --json                  machine-readable output (list, show)
    -h, --help              show this help
  """
