import Foundation
import Loom
import Testing

struct Item: Identifiable, Equatable, Codable, Hashable {
  var id: Int
  var name = ""
}

struct IdentifiedArrayTests {
  @Test func constructionKeepsTheFirstElementOfEachID() {
    let array = IdentifiedArray(uniqueElements: [Item(id: 1, name: "a"), Item(id: 1, name: "b")])
    #expect(array.elements == [Item(id: 1, name: "a")])
    #expect(array.checkInvariants())
  }

  @Test func anIDReadThroughAnyKeyPathFindsItsElement() {
    struct Keyed: Equatable {
      struct Key: Equatable { var prefix = "k"; var number: Int }
      var title = ""
      var key: Key
      var computedID: String { "\(key.prefix)\(key.number)" }
    }
    let elements = [Keyed(key: .init(number: 1)), Keyed(key: .init(number: 2))]
    // A nested stored id (read at its offset) and a computed one (applied).
    var byNumber = IdentifiedArray(elements, id: \Keyed.key.number)
    let byComputed = IdentifiedArray(uncheckedUniqueElements: elements, id: \Keyed.computedID)
    #expect(byNumber.ids == [1, 2])
    #expect(byComputed.ids == ["k1", "k2"])
    #expect(byNumber[id: 2] == elements[1])
    #expect(byComputed[id: "k1"] == elements[0])
    byNumber.append(Keyed(title: "three", key: .init(number: 3)))
    byNumber[id: 1]?.title = "one"
    #expect(byNumber.ids == [1, 2, 3])
    #expect(byNumber.map(\.title) == ["one", "", "three"])
    #expect(byNumber.checkInvariants())
  }

  @Test func appendingADuplicateIDKeepsTheExistingElement() {
    var array: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    let result = array.append(Item(id: 1, name: "b"))
    #expect(result.inserted == false)
    #expect(result.index == 0)
    #expect(array[id: 1]?.name == "a")
  }

  @Test func subscriptByIDReadsUpdatesAppendsAndRemoves() {
    var array: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2)]
    array[id: 2]?.name = "two"
    #expect(array[id: 2]?.name == "two")
    array[id: 3] = Item(id: 3)
    #expect(array.ids == [1, 2, 3])
    array[id: 1] = nil
    #expect(array.ids == [2, 3])
    #expect(array.index(id: 3) == 1)
    #expect(array.checkInvariants())
  }

  @Test func updatingAnElementInPlaceDoesNotTouchTheIDs() {
    var array: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2)]
    let before = array.ids
    array[id: 1]?.name = "changed"
    before.withUnsafeBufferPointer { old in
      array.ids.withUnsafeBufferPointer { new in
        #expect(old.baseAddress == new.baseAddress)
      }
    }
  }

  @Test func removingByIDKeepsTheOrderAndThePositions() {
    var array: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2), Item(id: 3)]
    #expect(array.remove(id: 2) == Item(id: 2))
    #expect(array.ids == [1, 3])
    #expect(array.index(id: 3) == 1)
    #expect(array.remove(id: 9) == nil)
    #expect(array.checkInvariants())
  }

  @Test func insertMoveSortAndFilterKeepTheIndexConsistent() {
    var array: IdentifiedArrayOf<Item> = [Item(id: 3), Item(id: 1)]
    array.insert(Item(id: 2), at: 1)
    #expect(array.ids == [3, 2, 1])
    array.move(from: 0, to: 2)
    #expect(array.ids == [2, 1, 3])
    array.sort { $0.id < $1.id }
    #expect(array.ids == [1, 2, 3])
    #expect(array.filter { $0.id != 2 }.ids == [1, 3])
    array.removeAll { $0.id == 1 }
    #expect(array.ids == [2, 3])
    #expect(array.checkInvariants())
  }

  @Test func removeAllKeepsTheOthersInOrderAndTheirPositions() {
    var array = IdentifiedArrayOf<Item>(uniqueElements: (0..<10).map { Item(id: $0) })
    array.removeAll { [0, 4, 5, 9].contains($0.id) }
    #expect(array.ids == [1, 2, 3, 6, 7, 8])
    #expect(array.index(id: 6) == 3)
    #expect(array.index(id: 4) == nil)
    #expect(array.checkInvariants())
    array.removeAll { _ in false }
    #expect(array.ids == [1, 2, 3, 6, 7, 8])
    array.removeAll { _ in true }
    #expect(array.isEmpty)
    #expect(array.checkInvariants())
  }

  @Test func removingAtOffsetsIgnoresThosePastTheEnd() {
    var array = IdentifiedArrayOf<Item>(uniqueElements: (0..<6).map { Item(id: $0) })
    array.remove(atOffsets: [0, 2, 5, 9])
    #expect(array.ids == [1, 3, 4])
    #expect(array.checkInvariants())
    array.remove(atOffsets: [7])
    array.remove(atOffsets: [])
    #expect(array.ids == [1, 3, 4])
  }

  @Test func aRemoveAllThatThrowsLeavesTheArrayAsItWas() {
    struct Stop: Error {}
    var array = IdentifiedArrayOf<Item>(uniqueElements: (0..<5).map { Item(id: $0) })
    #expect(throws: Stop.self) {
      try array.removeAll { item in
        if item.id == 3 { throw Stop() }
        return item.id == 1
      }
    }
    #expect(array.ids == [0, 1, 2, 3, 4])
    #expect(array.checkInvariants())
  }

  @Test func updateOrAppendReplacesByID() {
    var array: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    #expect(array.updateOrAppend(Item(id: 1, name: "b")) == Item(id: 1, name: "a"))
    #expect(array.updateOrAppend(Item(id: 2)) == nil)
    #expect(array.elements == [Item(id: 1, name: "b"), Item(id: 2)])
  }

  @Test func copiesHaveValueSemantics() {
    let original: IdentifiedArrayOf<Item> = [Item(id: 1)]
    var copy = original
    copy[id: 1]?.name = "changed"
    copy.append(Item(id: 2))
    #expect(original.elements == [Item(id: 1)])
  }

  @Test func codableRoundTripsAsAPlainArrayAndDecodingDropsDuplicates() throws {
    let array: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    let data = try JSONEncoder().encode(array)
    let json = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
    #expect(json?.count == 2)
    #expect(try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: data) == array)
    let duplicated = Data(#"[{"id":1,"name":"a"},{"id":1,"name":"b"}]"#.utf8)
    let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: duplicated)
    #expect(decoded.elements == [Item(id: 1, name: "a")])
  }

  @Test func randomOperationsKeepTheInvariants() {
    var generator = SeededRandomNumberGenerator(seed: 7)
    var array = IdentifiedArrayOf<Item>()
    var model: [Item] = []
    for _ in 0..<2_000 {
      let id = Int.random(in: 0..<50, using: &generator)
      switch Int.random(in: 0..<6, using: &generator) {
      case 0:
        array.append(Item(id: id))
        if !model.contains(where: { $0.id == id }) { model.append(Item(id: id)) }
      case 1:
        array.remove(id: id)
        model.removeAll { $0.id == id }
      case 2:
        array[id: id]?.name += "x"
        if let index = model.firstIndex(where: { $0.id == id }) { model[index].name += "x" }
      case 3:
        let position = Int.random(in: 0...model.count, using: &generator)
        array.insert(Item(id: id), at: position)
        if !model.contains(where: { $0.id == id }) { model.insert(Item(id: id), at: position) }
      case 4:
        array[id: id] = nil
        model.removeAll { $0.id == id }
      default:
        // Every element whose id leaves this remainder, wherever they are; or the elements at
        // a few random offsets.
        let modulus = Int.random(in: 2...7, using: &generator)
        if id.isMultiple(of: 2) {
          array.removeAll { $0.id % modulus == id % modulus }
          model.removeAll { $0.id % modulus == id % modulus }
        } else {
          let offsets = IndexSet((0..<modulus).map { _ in Int.random(in: 0...60, using: &generator) })
          array.remove(atOffsets: offsets)
          for offset in offsets.reversed() where offset < model.count { model.remove(at: offset) }
        }
      }
      #expect(array.checkInvariants())
    }
    #expect(array.elements == model)
  }
}
