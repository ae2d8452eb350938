import Loom
import Testing

struct DumpReferenceTests {
  @Test func classesPrintTheirFieldsLikeStructs() {
    #expect(
      loomDump(Inbox.Folder(name: "a")) == #"Inbox.Folder(name: "a", parent: nil, subfolders: [])"#)
  }

  @Test func subclassesPrintTheirSuperclassFieldsFirst() {
    #expect(
      loomDump(Inbox.SmartFolder(name: "s", query: "is:unread"))
        == #"Inbox.SmartFolder(name: "s", parent: nil, subfolders: [], query: "is:unread")"#)
  }

  @Test func aClassThatContainsItselfIsCutOff() {
    let loop = Inbox.Folder(name: "loop")
    loop.parent = loop
    defer { loop.parent = nil }
    #expect(
      loomDump(loop) == #"Inbox.Folder(name: "loop", parent: Inbox.Folder(↩︎), subfolders: [])"#)
  }

  @Test func aCycleThroughSeveralObjectsIsCutWhereItCloses() {
    let root = Inbox.Folder(name: "root")
    let child = Inbox.Folder(name: "child", parent: root)
    root.subfolders = [child]
    defer { root.subfolders = [] }
    #expect(
      loomDump(root) == """
        Inbox.Folder(
          name: "root",
          parent: nil,
          subfolders: [
            [0]: Inbox.Folder(name: "child", parent: Inbox.Folder(↩︎), subfolders: [])
          ]
        )
        """)
  }

  @Test func anObjectSharedBySiblingsIsNotACycle() {
    let shared = Inbox.Folder(name: "s")
    #expect(
      loomDump((shared, shared)) == """
        (
          Inbox.Folder(name: "s", parent: nil, subfolders: []),
          Inbox.Folder(name: "s", parent: nil, subfolders: [])
        )
        """)
  }

  @Test func observableClassesHideTheMacrosStorage() {
    let counter = Inbox.Counter()
    counter.count = 2
    #expect(loomDump(counter) == "Inbox.Counter(count: 2)")
  }
}
