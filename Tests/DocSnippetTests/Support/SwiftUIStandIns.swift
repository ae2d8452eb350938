// Where SwiftUI is missing (Linux), the SwiftUI sketches in Docs/EmbeddingInAnAppShell.md and
// Docs/ReducersAndComposition.md compile against these stand-ins, which have the shapes of the SwiftUI API it uses. That
// checks every Loom call in the sketch; on Apple platforms it compiles against SwiftUI itself.

#if !canImport(SwiftUI)
  import Observation

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

  /// SwiftUI's `@Bindable`: `$model.field` is a binding to a reference-writable property.
  @MainActor
  @propertyWrapper
  @dynamicMemberLookup
  struct Bindable<Model: AnyObject & Observable> {
    var wrappedValue: Model
    init(wrappedValue: Model) { self.wrappedValue = wrappedValue }
    var projectedValue: Self { self }

    subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Model, Value>)
      -> Binding<Value>
    {
      Binding(
        get: { wrappedValue[keyPath: keyPath] },
        set: { wrappedValue[keyPath: keyPath] = $0 })
    }
  }

  struct TextField: View {
    init(_ title: String, text: Binding<String>) {}
    var body: Void { () }
  }

  struct Toggle: View {
    init(_ title: String, isOn: Binding<Bool>) {}
    var body: Void { () }
  }

  /// `Form { a; b; c }`, for up to three rows.
  struct Form: View {
    init<A: View, B: View, C: View>(@FormRows content: () -> (A, B, C)) {}
    var body: Void { () }
  }

  @resultBuilder
  enum FormRows {
    static func buildBlock<A: View, B: View, C: View>(_ a: A, _ b: B, _ c: C) -> (A, B, C) {
      (a, b, c)
    }
  }

  struct ForEach<Data: RandomAccessCollection, Row: View>: View where Data.Element: Identifiable {
    init(_ data: Data, content: @escaping @MainActor (Data.Element) -> Row) {}
    var body: Void { () }
  }

  extension View {
    func sheet<Item: Identifiable, Content: View>(
      item: Binding<Item?>, content: @escaping @MainActor (Item) -> Content
    ) -> ModifiedView {
      ModifiedView()
    }

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
