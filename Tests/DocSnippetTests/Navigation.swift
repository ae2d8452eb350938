// The snippets of Docs/Navigation.md: the guide's package, `Library`, is its features
// (`Sources/Library/`) and their tests (`Tests/LibraryTests/`).

// snippet: book-detail
import Loom

struct Book: Equatable, Identifiable {
  let id: Int
  var title: String
}

struct BookDetail: Reducer {
  struct State: Equatable, Identifiable {
    var book: Book
    var pages: Int?
    var id: Int { book.id }
  }
  enum Action: Sendable, Equatable { case onAppear, pagesLoaded(Int), closeTapped }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      return .run { send in
        try await clock.sleep(for: .seconds(1))  // stands in for a request
        await send(.pagesLoaded(320))
      }
    case .pagesLoaded(let pages):
      state.pages = pages
      return .none
    case .closeTapped:
      return .run { _ in await dismiss() }
    }
  }
}
// snippet: end

// snippet: library
struct Library: Reducer {
  struct Destination: Reducer {
    enum State: Equatable {
      case detail(BookDetail.State)
      case alert(AlertState<Library.Action.Alert>)
    }
    enum Action: Sendable, Equatable {
      case detail(BookDetail.Action)
      case alert(Library.Action.Alert)
    }

    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(.detail, action: .detail) { BookDetail() }
    }
  }

  struct State: Equatable {
    var books: IdentifiedArrayOf<Book> = []
    @Presents var destination: Destination.State?
  }
  enum Action: Sendable, Equatable {
    case bookTapped(id: Int)
    case deleteTapped(id: Int)
    case destination(PresentationAction<Destination.Action>)

    enum Alert: Sendable, Equatable { case delete(id: Int) }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .bookTapped(let id):
        guard let book = state.books[id: id] else { return .none }
        state.destination = .detail(BookDetail.State(book: book))
      case .deleteTapped(let id):
        state.destination = .alert(
          AlertState(
            title: "Delete this book?",
            buttons: [
              ButtonState(role: .destructive, action: .delete(id: id), label: "Delete"),
              ButtonState(role: .cancel, label: "Cancel"),
            ]))
      case .destination(.presented(.alert(.delete(let id)))):
        state.books.remove(id: id)
      case .destination:
        break
      }
      return .none
    }
    .ifLet(\.$destination, action: .destination) { Destination() }
  }
}
// snippet: end

// snippet: library-case-paths
extension CasePath where Root == Library.Action {
  static var destination: CasePath<Root, PresentationAction<Library.Destination.Action>> { .init(Root.destination) { if case .destination(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == Library.Destination.State {
  static var detail: CasePath<Root, BookDetail.State> { .init(Root.detail) { if case .detail(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == Library.Destination.Action {
  static var detail: CasePath<Root, BookDetail.Action> { .init(Root.detail) { if case .detail(let a) = $0 { a } else { nil } } }
}
// snippet: end

// snippet: reading-list
struct ReadingList: Reducer {
  struct State: Equatable {
    var path = StackState<BookDetail.State>()
  }
  enum Action: Sendable, Equatable {
    case open(Book)
    case backToListTapped
    case path(StackActionOf<BookDetail>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .open(let book): state.path.append(BookDetail.State(book: book))
      case .backToListTapped: state.path.removeAll()
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: .path) { BookDetail() }
  }
}

extension CasePath where Root == ReadingList.Action {
  static var path: CasePath<Root, StackActionOf<BookDetail>> { .init(Root.path) { if case .path(let a) = $0 { a } else { nil } } }
}
// snippet: end

// snippet: chapter
struct Chapter: Reducer {
  struct State: Equatable {
    var title: String
    @Presents var section: State?
  }
  indirect enum Action: Sendable, Equatable {
    case sectionTapped(String)
    case section(PresentationAction<Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .sectionTapped(let title) = action { state.section = State(title: title) }
      return .none
    }
    .ifLet(\.$section, action: .section) { Chapter() }
  }
}

extension CasePath where Root == Chapter.Action {
  static var section: CasePath<Root, PresentationAction<Chapter.Action>> { .init(Root.section) { if case .section(let a) = $0 { a } else { nil } } }
}
// snippet: end

import LoomTesting
import Testing

extension NavigationGuideTests {
  // snippet: library-test
  @MainActor
  @Test func leavingABookBeforeItsPagesLoadCancelsTheLoad() async {
    let clock = TestClock()
    let dune = Book(id: 1, title: "Dune")
    let store = TestStore(initialState: Library.State(books: [dune])) { Library() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.bookTapped(id: 1)) { $0.destination = .detail(BookDetail.State(book: dune)) }
    await store.send(.destination(.presented(.detail(.onAppear))))
    await store.send(.destination(.presented(.detail(.closeTapped))))
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    await clock.advance(by: .seconds(1))  // the load was cancelled: nothing arrives
  }

  @MainActor
  @Test func aBookIsDeletedOnlyOnceTheAlertIsConfirmed() async {
    let dune = Book(id: 1, title: "Dune")
    let store = TestStore(initialState: Library.State(books: [dune])) { Library() }
    await store.send(.deleteTapped(id: 1)) {
      $0.destination = .alert(
        AlertState(
          title: "Delete this book?",
          buttons: [
            ButtonState(role: .destructive, action: .delete(id: 1), label: "Delete"),
            ButtonState(role: .cancel, label: "Cancel"),
          ]))
    }
    await store.send(.destination(.presented(.alert(.delete(id: 1))))) {
      $0.books = []
      $0.destination = nil
    }
  }
  // snippet: end

  // snippet: reading-list-test
  @MainActor
  @Test func aScreenPopsItselfAndBackToTheListCancelsTheRest() async {
    let clock = TestClock()
    let dune = Book(id: 1, title: "Dune")
    let emma = Book(id: 2, title: "Emma")
    let store = TestStore(initialState: ReadingList.State()) { ReadingList() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.open(dune)) { $0.path.append(BookDetail.State(book: dune)) }  // id 0
    await store.send(.path(.element(id: 0, action: .onAppear)))
    await store.send(.open(emma)) { $0.path.append(BookDetail.State(book: emma)) }  // id 1
    await store.send(.path(.element(id: 1, action: .closeTapped)))
    await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
    await store.send(.backToListTapped) { $0.path.removeAll() }
    await clock.advance(by: .seconds(1))  // Dune's load was cancelled with its screen
  }
  // snippet: end

  // snippet: chapter-test
  @MainActor
  @Test func chaptersNestAsDeepAsTheReaderGoes() async {
    let store = TestStore(initialState: Chapter.State(title: "1")) { Chapter() }
    await store.send(.sectionTapped("1.1")) { $0.section = Chapter.State(title: "1.1") }
    await store.send(.section(.presented(.sectionTapped("1.1.1")))) {
      $0.section?.section = Chapter.State(title: "1.1.1")
    }
    await store.send(.section(.dismiss)) { $0.section = nil }
  }
  // snippet: end
}

struct NavigationGuideTests {}

#if canImport(SwiftUI)
  import SwiftUI
#endif

// snippet: library-view
struct LibraryView: View {
  let store: StoreOf<Library>

  var body: some View {
    List(store.books) { book in
      Button(book.title) { store.send(.bookTapped(id: book.id)) }
    }
    .sheet(
      item: Binding(
        get: {
          store.scope(state: \.destination, action: .destination)?
            .scope(state: .detail, action: .detail)
        },
        set: { if case .none = $0 { store.send(.destination(.dismiss)) } })
    ) { detail in
      BookDetailView(store: detail)
    }
  }
}

struct BookDetailView: View {
  let store: StoreOf<BookDetail>

  var body: some View {
    Button("Close") { store.send(.closeTapped) }
      .onAppear { store.send(.onAppear) }
  }
}
// snippet: end

// snippet: reading-list-view
struct ReadingListView: View {
  let store: StoreOf<ReadingList>

  var body: some View {
    ForEach(store.scope(state: \.path, action: .path)) { screen in
      BookDetailView(store: screen)  // screen.send(.closeTapped) pops it
    }
  }
}
// snippet: end

// snippet: rows-view
struct RowsView: View {
  let store: StoreOf<App>

  var body: some View {
    ForEach(store.scope(state: \.rows, action: .rows)) { row in
      Toggle("Done", isOn: Binding(get: { row.isDone }, set: { _ in row.send(.toggled) }))
    }
  }
}
// snippet: end
