import Foundation
import NotificationFeature

/// Runs one command per line against one session; `#` starts a comment. Stops at the first
/// failing line unless `stopOnError` is false.
@MainActor
func runScript(
  _ lines: [String], session: Session, renderer: Renderer, stopOnError: Bool = true
) async throws(CLIError) -> Int32 {
  for (index, line) in lines.enumerated() {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
    do {
      let arguments = try Arguments(words(trimmed))
      print(try await run(arguments, session: session, renderer: renderer))
    } catch {
      FileHandle.standardError.write(Data("error: line \(index + 1): \(error)\n".utf8))
      if stopOnError { return error.exitCode }
    }
  }
  return 0
}

/// Splits a line into words, keeping "quoted phrases" together.
func words(_ line: String) -> [String] {
  var words: [String] = []
  var current = ""
  var quoted = false
  for character in line {
    if character == "\"" {
      quoted.toggle()
    } else if character == " ", !quoted {
      if !current.isEmpty { words.append(current) }
      current = ""
    } else {
      current.append(character)
    }
  }
  if !current.isEmpty { words.append(current) }
  return words
}

/// Follows the live stream: prints each notification that appears or changes.
@MainActor
func watch(session: Session, renderer: Renderer, maximumEvents: Int) async throws(CLIError) {
  try await session.load()
  var known = Dictionary(
    uniqueKeysWithValues: session.feature.notifications.map { ($0.id, $0) })
  print("Watching \(known.count) notifications (Ctrl-C to stop)…")
  let task = session.store.send(.notifications(.onAppear))
  defer { task.cancel() }
  var events = 0
  for await state in session.store.states {
    for notification in state.notifications.notifications where known[notification.id] != notification {
      let verb = known[notification.id] == nil ? "new" : "changed"
      known[notification.id] = notification
      print("\(verb): " + renderer.table([notification]))
      events += 1
    }
    for id in Set(known.keys).subtracting(state.notifications.notifications.ids) {
      known[id] = nil
      print("deleted: \(id)")
      events += 1
    }
    if events >= maximumEvents { return }
  }
}
