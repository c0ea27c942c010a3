package main

import (
	"flag"
	"fmt"
	"log"
	"sort"

	"github.com/hibiken/asynq"
)

// Big pages so a normal fixture fits in one call; listAll still loops so a
// huge queue is never silently truncated.
const dumpPageSize = 10000

type dumpDoc struct {
	Queues           []string                        `json:"queues"`
	QueueInfo        map[string]queueInfoJSON        `json:"queueInfo"`
	History          map[string][]historyJSON        `json:"history"`
	Groups           map[string][]groupJSON          `json:"groups"`
	Tasks            map[string]queueTasksJSON       `json:"tasks"`
	TaskInfo         map[string]map[string]taskJSON  `json:"taskInfo"`
	Servers          []serverJSON                    `json:"servers"`
	SchedulerEntries []schedulerEntryJSON            `json:"schedulerEntries"`
	SchedulerEvents  map[string][]schedulerEventJSON `json:"schedulerEvents"`
}

type queueInfoJSON struct {
	Queue          string `json:"queue"`
	Paused         bool   `json:"paused"`
	Size           int    `json:"size"`
	Pending        int    `json:"pending"`
	Active         int    `json:"active"`
	Scheduled      int    `json:"scheduled"`
	Retry          int    `json:"retry"`
	Archived       int    `json:"archived"`
	Completed      int    `json:"completed"`
	Aggregating    int    `json:"aggregating"`
	Groups         int    `json:"groups"`
	Processed      int    `json:"processed"`
	Failed         int    `json:"failed"`
	ProcessedTotal int    `json:"processedTotal"`
	FailedTotal    int    `json:"failedTotal"`
	LatencyNs      int64  `json:"latencyNs"`
	MemoryUsage    int64  `json:"memoryUsage"`
	Timestamp      int64  `json:"timestamp"`
}

func toQueueInfoJSON(qi *asynq.QueueInfo) queueInfoJSON {
	return queueInfoJSON{
		Queue: qi.Queue, Paused: qi.Paused, Size: qi.Size,
		Pending: qi.Pending, Active: qi.Active, Scheduled: qi.Scheduled, Retry: qi.Retry,
		Archived: qi.Archived, Completed: qi.Completed, Aggregating: qi.Aggregating, Groups: qi.Groups,
		Processed: qi.Processed, Failed: qi.Failed, ProcessedTotal: qi.ProcessedTotal, FailedTotal: qi.FailedTotal,
		LatencyNs: qi.Latency.Nanoseconds(), MemoryUsage: qi.MemoryUsage, Timestamp: unixOrZero(qi.Timestamp),
	}
}

type historyJSON struct {
	Date      string `json:"date"`
	Processed int    `json:"processed"`
	Failed    int    `json:"failed"`
}

type groupJSON struct {
	Group string `json:"group"`
	Size  int    `json:"size"`
}

type queueTasksJSON struct {
	Pending     []taskJSON            `json:"pending"`
	Active      []taskJSON            `json:"active"`
	Scheduled   []taskJSON            `json:"scheduled"`
	Retry       []taskJSON            `json:"retry"`
	Archived    []taskJSON            `json:"archived"`
	Completed   []taskJSON            `json:"completed"`
	Aggregating map[string][]taskJSON `json:"aggregating"`
}

func runDump(args []string) error {
	fs := flag.NewFlagSet("dump", flag.ContinueOnError)
	rf := addRedisFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	insp := asynq.NewInspector(rf.connOpt())
	defer insp.Close()
	return dumpInspector(insp)
}

// dumpInspector writes, as JSON on stdout, everything Go's Inspector reports about the Redis it
// reads: one server or a cluster.
func dumpInspector(insp *asynq.Inspector) error {
	queues, err := insp.Queues()
	if err != nil {
		return fmt.Errorf("queues: %w", err)
	}
	sort.Strings(queues) // SMEMBERS order is arbitrary
	doc := dumpDoc{
		Queues:          append([]string{}, queues...),
		QueueInfo:       map[string]queueInfoJSON{},
		History:         map[string][]historyJSON{},
		Groups:          map[string][]groupJSON{},
		Tasks:           map[string]queueTasksJSON{},
		TaskInfo:        map[string]map[string]taskJSON{},
		SchedulerEvents: map[string][]schedulerEventJSON{},
	}
	for _, q := range queues {
		if err := dumpQueue(insp, q, &doc); err != nil {
			return fmt.Errorf("queue %q: %w", q, err)
		}
	}
	if doc.Servers, err = dumpServers(insp); err != nil {
		return fmt.Errorf("servers: %w", err)
	}
	if err := dumpScheduler(insp, &doc); err != nil {
		return fmt.Errorf("scheduler: %w", err)
	}
	return writeJSON(doc)
}

func dumpQueue(insp *asynq.Inspector, q string, doc *dumpDoc) error {
	qi, err := insp.GetQueueInfo(q)
	if err != nil {
		return fmt.Errorf("GetQueueInfo: %w", err)
	}
	doc.QueueInfo[q] = toQueueInfoJSON(qi)

	hist, err := insp.History(q, 7)
	if err != nil {
		return fmt.Errorf("History: %w", err)
	}
	hs := []historyJSON{}
	for _, h := range hist {
		// asynq keys daily counters by UTC date.
		hs = append(hs, historyJSON{Date: h.Date.UTC().Format("2006-01-02"), Processed: h.Processed, Failed: h.Failed})
	}
	doc.History[q] = hs

	groups, err := insp.Groups(q)
	if err != nil {
		return fmt.Errorf("Groups: %w", err)
	}
	gs := []groupJSON{}
	for _, g := range groups {
		gs = append(gs, groupJSON{Group: g.Group, Size: g.Size})
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].Group < gs[j].Group }) // SMEMBERS order is arbitrary
	doc.Groups[q] = gs

	list := func(name string, fn func(...asynq.ListOption) ([]*asynq.TaskInfo, error)) ([]taskJSON, error) {
		all, err := listAll(fn)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out := make([]taskJSON, 0, len(all))
		for _, t := range all {
			out = append(out, toTaskJSON(t))
		}
		return out, nil
	}
	var qt queueTasksJSON
	steps := []struct {
		dst  *[]taskJSON
		name string
		fn   func(string, ...asynq.ListOption) ([]*asynq.TaskInfo, error)
	}{
		{&qt.Pending, "ListPendingTasks", insp.ListPendingTasks},
		{&qt.Active, "ListActiveTasks", insp.ListActiveTasks},
		{&qt.Scheduled, "ListScheduledTasks", insp.ListScheduledTasks},
		{&qt.Retry, "ListRetryTasks", insp.ListRetryTasks},
		{&qt.Archived, "ListArchivedTasks", insp.ListArchivedTasks},
		{&qt.Completed, "ListCompletedTasks", insp.ListCompletedTasks},
	}
	for _, st := range steps {
		fn := st.fn
		if *st.dst, err = list(st.name, func(o ...asynq.ListOption) ([]*asynq.TaskInfo, error) { return fn(q, o...) }); err != nil {
			return err
		}
	}
	qt.Aggregating = map[string][]taskJSON{}
	for _, g := range gs {
		group := g.Group
		if qt.Aggregating[group], err = list("ListAggregatingTasks", func(o ...asynq.ListOption) ([]*asynq.TaskInfo, error) {
			return insp.ListAggregatingTasks(q, group, o...)
		}); err != nil {
			return err
		}
	}
	doc.Tasks[q] = qt

	// GetTaskInfo goes through a different script than the list calls, so the
	// TS side gets both views of every task.
	infos := map[string]taskJSON{}
	all := [][]taskJSON{qt.Pending, qt.Active, qt.Scheduled, qt.Retry, qt.Archived, qt.Completed}
	for _, g := range gs {
		all = append(all, qt.Aggregating[g.Group])
	}
	for _, ts := range all {
		for _, t := range ts {
			ti, err := insp.GetTaskInfo(q, t.ID)
			if err != nil {
				// Only possible for a task that moved mid-dump (e.g. cron).
				log.Printf("dump: GetTaskInfo(%q, %q): %v", q, t.ID, err)
				continue
			}
			infos[t.ID] = toTaskJSON(ti)
		}
	}
	doc.TaskInfo[q] = infos
	return nil
}

// listAll pages through a listing in asynq's own order.
func listAll(fn func(...asynq.ListOption) ([]*asynq.TaskInfo, error)) ([]*asynq.TaskInfo, error) {
	var all []*asynq.TaskInfo
	for page := 1; ; page++ {
		batch, err := fn(asynq.Page(page), asynq.PageSize(dumpPageSize))
		if err != nil {
			return nil, err
		}
		all = append(all, batch...)
		if len(batch) < dumpPageSize {
			return all, nil
		}
	}
}
