package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/hibiken/asynq"
)

// condition reports "" when satisfied, otherwise what is still missing
// (used in the timeout error so a failing CI run says which situation hung).
type condition struct {
	name  string
	check func() (string, error)
}

func (s *scenario) waitStable(ctx context.Context) error {
	conds := []condition{
		{"default queue", s.checkQueue(qDefault, want{pending: 9, scheduled: 3})},
		{"agg queue", s.checkQueue(qAgg, want{aggregating: 5, groups: 2})},
		{"low priority queue", s.checkQueue(qSpace, want{pending: 1})},
		{"unicode queue", s.checkQueue(qUnicode, want{pending: 1})},
		// 3 ok + 1 result + 1 retry + 2 archived are counted as processed;
		// the retry and the 2 archives as failed.
		{"work:main queue", s.checkQueue(qWork, want{active: 1, retry: 1, archived: 2, completed: 1,
			processedTotal: 7, failedTotal: 3})},
		{"retry task retried once", s.checkRetried},
		{"blocked worker in heartbeat", s.checkWorker},
		{"scheduler entries + events", s.checkScheduler},
	}
	for _, c := range conds {
		for {
			missing, err := c.check()
			if err == nil && missing == "" {
				log.Printf("ok: %s", c.name)
				break
			}
			if err != nil {
				missing = err.Error()
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("situation %q not reached: %s", c.name, missing)
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	return nil
}

// want lists the exact queue counters a situation must show; the fields not
// mentioned must be zero, which also proves nothing leaked between queues.
type want struct {
	pending, active, scheduled, retry, archived, completed, aggregating, groups int
	processedTotal, failedTotal                                                 int
}

func (s *scenario) checkQueue(q string, w want) func() (string, error) {
	return func() (string, error) {
		qi, err := s.insp.GetQueueInfo(q)
		if err != nil {
			return "", err
		}
		got := want{qi.Pending, qi.Active, qi.Scheduled, qi.Retry, qi.Archived, qi.Completed,
			qi.Aggregating, qi.Groups, qi.ProcessedTotal, qi.FailedTotal}
		if got != w {
			return fmt.Sprintf("got %+v want %+v", got, w), nil
		}
		return "", nil
	}
}

func (s *scenario) checkRetried() (string, error) {
	ts, err := s.insp.ListRetryTasks(qWork)
	if err != nil {
		return "", err
	}
	if len(ts) != 1 || ts[0].Retried != 1 || ts[0].LastErr != "boom: something failed" {
		return fmt.Sprintf("retry tasks: %d", len(ts)), nil
	}
	return "", nil
}

// checkWorker waits for the server heartbeat (every 5s, not configurable in
// v0.26.0) to publish the worker holding work:block.
func (s *scenario) checkWorker() (string, error) {
	servers, err := s.insp.Servers()
	if err != nil {
		return "", err
	}
	for _, srv := range servers {
		for _, w := range srv.ActiveWorkers {
			if w.TaskID == s.blockID && w.Queue == qWork {
				return "", nil
			}
		}
	}
	return fmt.Sprintf("no worker for task %s among %d servers", s.blockID, len(servers)), nil
}

func (s *scenario) checkScheduler() (string, error) {
	entries, err := s.insp.SchedulerEntries()
	if err != nil {
		return "", err
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.ID] = true
	}
	if !seen[s.tickEntry] || !seen[s.hourlyEntry] {
		return fmt.Sprintf("scheduler heartbeat not visible (%d entries)", len(entries)), nil
	}
	events, err := s.insp.ListSchedulerEnqueueEvents(s.tickEntry, asynq.PageSize(10))
	if err != nil {
		return "", err
	}
	if len(events) < 2 {
		return fmt.Sprintf("only %d cron:tick events", len(events)), nil
	}
	return "", nil
}
