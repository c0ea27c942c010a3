package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"
)

// runArchiveCutoff prints, for each Unix-millisecond instant read as a JSON array on stdin,
// asynq's archive cutoff as its Inspector and server compute it at that instant:
// now.AddDate(0, 0, -90).Unix() (internal/rdb: archivedExpirationInDays), with time.Local set
// to --tz, as TZ=<zone> would set it for an asynq process.
func runArchiveCutoff(args []string) error {
	fs := flag.NewFlagSet("archive-cutoff", flag.ContinueOnError)
	tz := fs.String("tz", "UTC", "the asynq process' local time zone (IANA name)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return fmt.Errorf("--tz: %w", err)
	}
	time.Local = loc
	var instants []int64
	if err := json.NewDecoder(os.Stdin).Decode(&instants); err != nil {
		return fmt.Errorf("bad request JSON: %w", err)
	}
	out := make([]int64, len(instants))
	for i, ms := range instants {
		out[i] = time.UnixMilli(ms).AddDate(0, 0, -90).Unix()
	}
	return writeJSON(out)
}
