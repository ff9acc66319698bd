package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

const versionSynopsis = "\n\nPrints the module version, the commit it was built from and whether the checkout had\n" +
	"uncommitted changes, and the Go toolchain, from the build information the Go command\n" +
	"writes into every binary. 'chainsieve --version' prints the same."

// version is "chainsieve version" (and "chainsieve --version").
func version(_ context.Context, e *env, args []string) int {
	fs := newFlags(e, "version", versionSynopsis)
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(e, "version", "unexpected argument %q", pos[0])
	}
	info, _ := debug.ReadBuildInfo()
	writeVersion(e.stdout, info)
	return exitOK
}

// writeVersion prints what info says of the build, info nil when the binary
// carries none:
//
//	chainsieve v1.2.0
//	module  github.com/chainsieve/chainsieve v1.2.0
//	commit  0123abcd… 2026-01-02T03:04:05Z (modified)
//	go      go1.26.0 linux/amd64
//
// A binary built with go install module@version has a version and no
// commit; go build in a checkout stamps the commit (and since Go 1.24 a
// pseudo-version made of it); go run and go test stamp neither, and say so.
func writeVersion(w io.Writer, info *debug.BuildInfo) {
	goVersion := runtime.Version()
	mod, ver := "github.com/chainsieve/chainsieve", "(unknown)"
	settings := map[string]string{}
	if info != nil {
		goVersion = info.GoVersion
		if info.Main.Path != "" {
			mod, ver = info.Main.Path, info.Main.Version
		}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
	}
	if ver == "" {
		ver = "(unknown)"
	}
	fmt.Fprintf(w, "chainsieve %s\n", ver)
	fmt.Fprintf(w, "module  %s %s\n", mod, ver)
	fmt.Fprintf(w, "commit  %s\n", commitLine(settings))
	platform := strings.TrimSpace(settings["GOOS"] + "/" + settings["GOARCH"])
	if platform == "/" {
		platform = runtime.GOOS + "/" + runtime.GOARCH
	}
	fmt.Fprintf(w, "go      %s %s\n", goVersion, platform)
}

// commitLine describes the VCS stamp: revision, commit time and whether
// the working tree had uncommitted changes.
func commitLine(s map[string]string) string {
	rev := s["vcs.revision"]
	if rev == "" {
		return "unknown (no VCS information: built by go run, go test, with -buildvcs=false, or outside a git checkout)"
	}
	line := rev
	if t := s["vcs.time"]; t != "" {
		line += " " + t
	}
	switch s["vcs.modified"] {
	case "true":
		line += " (modified: the checkout had uncommitted changes)"
	case "false":
		line += " (clean)"
	}
	return line
}

// isVersionFlag reports whether a is the --version flag.
func isVersionFlag(a string) bool { return a == "--version" || a == "-version" }
