print("notifications-server: not built yet")
