// Where SwiftUI is missing (Linux), the SwiftUI sketch in Docs/EmbeddingInAnAppShell.md
// compiles against these stand-ins, which have the shapes of the SwiftUI API it uses. That
// checks every Loom call in the sketch; on Apple platforms it compiles against SwiftUI itself.

#if !canImport(SwiftUI)
  @MainActor
  protocol View {
    associatedtype Body
    var body: Body { get }
  }

  /// What every stand-in modifier returns.
  struct ModifiedView: View {
    var body: Void { () }
  }

  struct Text: View {
    init(_ text: String) {}
    var body: Void { () }
  }

  struct Button: View {
    init(_ title: String, action: @escaping @MainActor () -> Void) {}
    var body: Void { () }
  }

  struct List<Data: RandomAccessCollection, Row: View>: View where Data.Element: Identifiable {
    init(_ data: Data, rowContent: @escaping @MainActor (Data.Element) -> Row) {}
    var body: Void { () }
  }

  struct Binding<Value> {
    init(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) {}
  }

  extension View {
    func badge(_ count: Int) -> ModifiedView { ModifiedView() }
    func onAppear(perform action: @escaping @MainActor () -> Void) -> ModifiedView { ModifiedView() }
    func onDisappear(perform action: @escaping @MainActor () -> Void) -> ModifiedView {
      ModifiedView()
    }
    func sheet<Content: View>(
      isPresented: Binding<Bool>, content: @escaping @MainActor () -> Content
    ) -> ModifiedView {
      ModifiedView()
    }
  }
#endif
