import Loom
import Testing

/// Cancel ids are compared by type and value: ids of two types that hash alike never cancel
/// each other's effects.
@MainActor
struct CancelIDTests {
  /// The first case of two enums: the same hash value, different types.
  enum Search: Hashable, Sendable { case query }
  enum Upload: Hashable, Sendable { case query }

  struct Feature: Reducer {
    struct State: Equatable {}
    enum Action: Sendable { case startSearch, startUpload, cancelSearch, cancelNumber }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .startSearch:
        return .run { _ in try await Task.sleep(for: .seconds(3_600)) }
          .cancellable(id: Search.query)
      case .startUpload:
        return .run { _ in try await Task.sleep(for: .seconds(3_600)) }
          .cancellable(id: Upload.query)
      case .cancelSearch:
        return .cancel(id: Search.query)
      case .cancelNumber:
        // An `Int` 0 hashes like the first case of an enum as well.
        return .cancel(id: 0)
      }
    }
  }

  @Test func idsOfTwoTypesThatHashAlikeAreDifferentIDs() async {
    #expect(Search.query.hashValue == Upload.query.hashValue)
    let store = Store(initialState: Feature.State()) { Feature() }
    let search = store.send(.startSearch)
    let upload = store.send(.startUpload)
    store.send(.cancelNumber)
    #expect(store.inFlightEffectCount == 2)
    store.send(.cancelSearch)
    await search.finish()
    #expect(store.inFlightEffectCount == 1)
    #expect(!upload.isFinished)
    upload.cancel()
    await upload.finish()
    #expect(store.inFlightEffectCount == 0)
  }
}
