import Loom
import Testing

/// A key path of stored properties is read at its offset; any other is applied. Either way the
/// value read is the key path's.
struct StoredPathReaderTests {
  final class Reference {
    var value = 1
  }

  struct Inner: Equatable {
    var a = "a"
    var b = 2
  }

  struct Generic<T> {
    var first: T
    var second: T
  }

  struct Outer {
    var flag = false
    var inner = Inner()
    var pair: (String, Int) = ("x", 3)
    var maybe: Inner? = Inner(a: "m", b: 4)
    var generic = Generic(first: "f", second: "s")
    let reference = Reference()
    var computed: Int { inner.b * 10 }
  }

  @Test func storedPropertiesAreReadAtTheirOffset() {
    var outer = Outer()
    let nested = StoredPathReader(\Outer.inner.b)
    let tuple = StoredPathReader(\Outer.pair.1)
    let generic = StoredPathReader(\Outer.generic.second)
    let whole = StoredPathReader(\Outer.inner)
    #expect([nested.readsAtOffset, tuple.readsAtOffset, generic.readsAtOffset] == [true, true, true])
    #expect(nested.read(outer) == 2)
    #expect(tuple.read(outer) == 3)
    #expect(generic.read(outer) == "s")
    #expect(whole.read(outer) == Inner())
    outer.inner.b = 20
    outer.pair.1 = 30
    outer.generic.second = "t"
    #expect(nested.read(outer) == 20)
    #expect(tuple.read(outer) == 30)
    #expect(generic.read(outer) == "t")
    #expect(whole.read(outer) == Inner(a: "a", b: 20))
  }

  @Test func otherKeyPathsAreApplied() {
    let outer = Outer()
    let throughAClass = StoredPathReader(\Outer.reference.value)
    let throughAnOptional = StoredPathReader(\Outer.maybe?.b)
    let computed = StoredPathReader(\Outer.computed)
    #expect(
      [throughAClass.readsAtOffset, throughAnOptional.readsAtOffset, computed.readsAtOffset]
        == [false, false, false])
    outer.reference.value = 5
    #expect(throughAClass.read(outer) == 5)
    #expect(throughAnOptional.read(outer) == 4)
    #expect(computed.read(outer) == 20)
  }

  @Test func theIdentityKeyPathReadsTheWholeValue() {
    let reader = StoredPathReader(\Inner.self)
    #expect(reader.read(Inner(a: "q", b: 9)) == Inner(a: "q", b: 9))
  }
}
