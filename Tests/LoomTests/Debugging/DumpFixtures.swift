import Foundation

struct Row: Identifiable, Equatable {
  var id: Int
  var title: String
  var isOn = false
}

enum Mode: Equatable {
  case idle
  case editing(id: Int)
  case loading(String, attempt: Int)
}

struct Screen: Equatable {
  var count = 0
  var name: String? = nil
  var mode = Mode.idle
  var rows: [Row] = []
  var tags: Set<String> = []
  var scores: [String: Int] = [:]
}

final class Node {
  var name: String
  var next: Node?
  init(name: String) { self.name = name }
}
