package main

import (
	"errors"
	"runtime/debug"
)

// versionJSON tells the TS side which asynq this program was built against and
// what that release can do, so each test expects what that release does.
type versionJSON struct {
	Asynq   string `json:"asynq"`
	GoRedis string `json:"goRedis"`
	Headers bool   `json:"headers"`
	Revoke  bool   `json:"revoke"`
}

func runVersion([]string) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return errors.New("no build info in this binary")
	}
	out := versionJSON{Headers: headersSupported, Revoke: revokeSupported}
	for _, dep := range info.Deps {
		switch dep.Path {
		case "github.com/hibiken/asynq":
			out.Asynq = dep.Version
		case "github.com/redis/go-redis/v9":
			out.GoRedis = dep.Version
		}
	}
	return writeJSON(out)
}
