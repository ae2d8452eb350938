print("loom-bench: not built yet")
