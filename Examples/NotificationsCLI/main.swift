print("notifications: not built yet")
