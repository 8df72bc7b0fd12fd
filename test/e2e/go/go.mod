module cnpgi-e2e

// 1.19 is the oldest Go this code compiles with (Debian bookworm's golang-go); the test
// adapts its client-side assertion to the version it finds. CI installs Go 1.23, the
// generation the operator and the plugins are built with.
go 1.19
