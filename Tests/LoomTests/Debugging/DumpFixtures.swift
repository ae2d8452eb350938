import Foundation
import Observation

/// The values the dump and diff tests print, nested in a namespace so that they read
/// `Inbox.Row` the way a feature's types read `Feature.State`.
enum Inbox {
  struct State: Equatable {
    var count = 0
    var rows: [Row] = []
    var mode = Mode.idle
    var error: String? = nil
  }

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

  /// An enum whose `description` is not its case name.
  enum Priority: String, CustomStringConvertible {
    case high
    var description: String { "HIGH PRIORITY" }
  }

  struct Settings: Equatable {
    var name = "Inbox"
    var sound = Sound()
    var tags: [String] = []
  }

  struct Sound: Equatable {
    var volume = 3
    var isMuted = false
  }

  struct Page<Element> {
    var items: [Element]
  }

  /// No stored properties and no description: printed as an empty record.
  struct Marker {}

  /// No stored properties, but a description.
  struct Version: CustomStringConvertible {
    var description: String { "v2" }
  }

  class Folder {
    var name: String
    var parent: Folder?
    var subfolders: [Folder] = []

    init(name: String, parent: Folder? = nil) {
      self.name = name
      self.parent = parent
    }
  }

  final class SmartFolder: Folder {
    var query: String

    init(name: String, query: String) {
      self.query = query
      super.init(name: name)
    }
  }

  @Observable final class Counter {
    var count = 0
  }
}

/// Stands in for `IdentifiedArray`: a type that is not an array but reflects as a collection.
struct IDArray<Element: Identifiable>: CustomReflectable {
  var elements: [Element]

  var customMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}

extension Inbox.Row {
  static let one = Inbox.Row(id: 1, title: "One")
  static let two = Inbox.Row(id: 2, title: "Two")
  static let three = Inbox.Row(id: 3, title: "Three")
  static let four = Inbox.Row(id: 4, title: "Four")
}
