// The AppShell module. Its types live in the files beside this one.
