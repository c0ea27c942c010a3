package main

import (
	"sort"

	"github.com/hibiken/asynq"
)

// Servers, workers and schedulers: the heartbeat-driven part of the dump.

type serverJSON struct {
	ID             string         `json:"id"`
	Host           string         `json:"host"`
	PID            int            `json:"pid"`
	Concurrency    int            `json:"concurrency"`
	Queues         map[string]int `json:"queues"`
	StrictPriority bool           `json:"strictPriority"`
	Status         string         `json:"status"`
	StartedAt      int64          `json:"startedAt"`
	StartedAtNanos int            `json:"startedAtNanos"` // within the second: the precision Go read
	Workers        []workerJSON   `json:"workers"`
}

type workerJSON struct {
	TaskID         string  `json:"taskId"`
	TaskType       string  `json:"taskType"`
	Queue          string  `json:"queue"`
	PayloadBase64  *string `json:"payloadBase64"`
	StartedAt      int64   `json:"startedAt"`
	Deadline       int64   `json:"deadline"`
	StartedAtNanos int     `json:"startedAtNanos"`
	DeadlineNanos  int     `json:"deadlineNanos"`
}

type schedulerEntryJSON struct {
	ID            string   `json:"id"`
	Spec          string   `json:"spec"`
	TaskType      string   `json:"taskType"`
	PayloadBase64 *string  `json:"payloadBase64"`
	Options       []string `json:"options"`
	NextEnqueueAt int64    `json:"nextEnqueueAt"`
	PrevEnqueueAt int64    `json:"prevEnqueueAt"`
}

type schedulerEventJSON struct {
	TaskID          string `json:"taskId"`
	EnqueuedAt      int64  `json:"enqueuedAt"`
	EnqueuedAtNanos int    `json:"enqueuedAtNanos"`
}

func dumpServers(insp *asynq.Inspector) ([]serverJSON, error) {
	servers, err := insp.Servers()
	if err != nil {
		return nil, err
	}
	out := []serverJSON{}
	for _, s := range servers {
		ws := []workerJSON{} // HVALS order, as the Inspector returns it
		for _, w := range s.ActiveWorkers {
			ws = append(ws, workerJSON{
				TaskID: w.TaskID, TaskType: w.TaskType, Queue: w.Queue,
				PayloadBase64: b64(w.TaskPayload),
				StartedAt:     unixOrZero(w.Started), Deadline: unixOrZero(w.Deadline),
				StartedAtNanos: w.Started.Nanosecond(), DeadlineNanos: w.Deadline.Nanosecond(),
			})
		}
		queues := s.Queues
		if queues == nil {
			queues = map[string]int{}
		}
		out = append(out, serverJSON{
			ID: s.ID, Host: s.Host, PID: s.PID, Concurrency: s.Concurrency, Queues: queues,
			StrictPriority: s.StrictPriority, Status: s.Status, StartedAt: unixOrZero(s.Started),
			StartedAtNanos: s.Started.Nanosecond(), Workers: ws,
		})
	}
	// Inspector.Servers() iterates a Go map, so its order is random: sort.
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func dumpScheduler(insp *asynq.Inspector, doc *dumpDoc) error {
	entries, err := insp.SchedulerEntries()
	if err != nil {
		return err
	}
	doc.SchedulerEntries = []schedulerEntryJSON{}
	for _, e := range entries {
		// Inspector re-parses the stored option strings and drops the ones it
		// cannot parse (TaskID, Group); we print what survives, via String().
		opts := []string{}
		for _, o := range e.Opts {
			opts = append(opts, o.String())
		}
		doc.SchedulerEntries = append(doc.SchedulerEntries, schedulerEntryJSON{
			ID: e.ID, Spec: e.Spec, TaskType: e.Task.Type(), PayloadBase64: b64(e.Task.Payload()),
			Options: opts, NextEnqueueAt: unixOrZero(e.Next), PrevEnqueueAt: unixOrZero(e.Prev),
		})

		evs := []schedulerEventJSON{} // newest first, as the Inspector returns them
		for page := 1; ; page++ {
			batch, err := insp.ListSchedulerEnqueueEvents(e.ID, asynq.Page(page), asynq.PageSize(dumpPageSize))
			if err != nil {
				return err
			}
			for _, ev := range batch {
				evs = append(evs, schedulerEventJSON{TaskID: ev.TaskID, EnqueuedAt: unixOrZero(ev.EnqueuedAt), EnqueuedAtNanos: ev.EnqueuedAt.Nanosecond()})
			}
			if len(batch) < dumpPageSize {
				break
			}
		}
		doc.SchedulerEvents[e.ID] = evs
	}
	return nil
}
