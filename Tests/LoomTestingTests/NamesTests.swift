import Loom
import LoomTesting
import Testing

/// Names a test file importing Loom, LoomTesting and Swift Testing uses unqualified: Loom's
/// issue location is `CodeLocation`, so `SourceLocation` is Swift Testing's alone (with Loom's
/// named `SourceLocation` too, this file did not compile), and `StoreOf` / `TestStoreOf` name a
/// reducer's stores.
@MainActor
struct NamesTests {
  @Test func sourceLocationIsSwiftTestingsAndCodeLocationIsLooms() {
    let testing: SourceLocation = #_sourceLocation
    let loom = CodeLocation()
    #expect(testing.line == loom.line - 1)
    #expect(loom.fileID == testing.fileID)
  }

  @Test func storeOfAndTestStoreOfNameAReducersStores() async {
    let store: StoreOf<Counter> = Store(initialState: Counter.State()) { Counter() }
    store.send(.increment)
    #expect(store.state.count == 1)
    let testStore: TestStoreOf<Counter> = TestStore(initialState: Counter.State()) { Counter() }
    await testStore.send(.increment) { $0.count = 1 }
  }
}
