"""What the app keeps on disk and in the keyring: the path registry, file permissions, storage
faults, settings, credentials, bundled assets."""
