package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/robfig/cron/v3"
)

// cronNextCase is one spec to parse and the instant (Unix ms) to walk its fire times from.
type cronNextCase struct {
	Spec string `json:"spec"`
	From int64  `json:"from"`
	N    int    `json:"n"`
}

// cronNextResult holds the fire times (Unix ms; Go's zero time when none is found within five
// years), or robfig's error text, or the panic a spec causes.
type cronNextResult struct {
	Times []int64 `json:"times"`
	Error string  `json:"error,omitempty"`
	Panic string  `json:"panic,omitempty"`
}

// runCronNext parses each spec on stdin (a JSON array of cronNextCase) the way asynq's
// Scheduler does — cron.New(cron.WithLocation(loc)) with --location as SchedulerOpts.Location,
// then AddJob — and prints its next N fire times, each from the previous one as a running
// cron advances (the first from the case's instant, read in that location).
func runCronNext(args []string) error {
	fs := flag.NewFlagSet("cron-next", flag.ContinueOnError)
	location := fs.String("location", "UTC", "the scheduler's location (IANA name)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	loc, err := time.LoadLocation(*location)
	if err != nil {
		return fmt.Errorf("--location: %w", err)
	}
	var cases []cronNextCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		return fmt.Errorf("bad request JSON: %w", err)
	}
	out := make([]cronNextResult, len(cases))
	for i, c := range cases {
		out[i] = cronNext(loc, c)
	}
	return writeJSON(out)
}

func cronNext(loc *time.Location, c cronNextCase) (res cronNextResult) {
	res.Times = []int64{}
	defer func() {
		if p := recover(); p != nil {
			res.Panic = fmt.Sprint(p)
		}
	}()
	cr := cron.New(cron.WithLocation(loc))
	id, err := cr.AddFunc(c.Spec, func() {})
	if err != nil {
		res.Error = err.Error()
		return res
	}
	schedule := cr.Entry(id).Schedule
	t := time.UnixMilli(c.From).In(loc)
	for i := 0; i < c.N; i++ {
		t = schedule.Next(t)
		res.Times = append(res.Times, t.UnixMilli())
		if t.IsZero() {
			break
		}
	}
	return res
}
