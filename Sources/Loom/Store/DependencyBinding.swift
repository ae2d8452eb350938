/// Runs `body` with `values` bound as the current dependencies. Lets the inlinable send path
/// bind dependencies without exposing the task-local itself.
///
/// Binding a task-local costs tens of nanoseconds, so when both the store's dependencies and
/// the current ones are the untouched process default the binding is skipped: it would change
/// nothing.
@usableFromInline
func _withDependencies(_ values: DependencyValues, _ body: () -> Void) {
  DependencyValues.noteBinding(values)
  DependencyValues.$current.withValue(values, operation: body)
}

/// Whether the current dependencies are the untouched process default: certainly so while no
/// task has ever bound others, without reading the task-local.
@usableFromInline
func _currentDependenciesAreProcessDefault() -> Bool {
  guard DependencyValues.hasBeenOverridden.load(ordering: .acquiring) else { return true }
  return DependencyValues.current.isProcessDefault
}

/// The dependencies of the current context.
@usableFromInline
func _currentDependencies() -> DependencyValues {
  DependencyValues.current
}

/// Runs a store's dependency overrides with the values marked as being prepared.
@usableFromInline
func _prepare(
  _ values: inout DependencyValues, with update: (inout DependencyValues) -> Void
) {
  values.isPreparing = true
  update(&values)
  values.isPreparing = false
}
