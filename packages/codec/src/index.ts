// Public surface of this package; filled in by the issue that builds it.
export {};
