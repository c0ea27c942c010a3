package main

import (
	"encoding/base64"
	"time"

	"github.com/hibiken/asynq"
)

// taskJSON is the wire shape shared by `dump` and `enqueue`. Times are Unix
// seconds with 0 for Go's zero time, because that is the resolution asynq
// stores and it compares cleanly with the TS side's numbers.
type taskJSON struct {
	ID               string            `json:"id"`
	Queue            string            `json:"queue"`
	Type             string            `json:"type"`
	PayloadBase64    *string           `json:"payloadBase64"`
	State            string            `json:"state"`
	MaxRetry         int               `json:"maxRetry"`
	Retried          int               `json:"retried"`
	LastError        string            `json:"lastError"`
	LastFailedAt     int64             `json:"lastFailedAt"`
	TimeoutSeconds   int64             `json:"timeoutSeconds"`
	Deadline         int64             `json:"deadline"`
	Group            string            `json:"group"`
	NextProcessAt    int64             `json:"nextProcessAt"`
	CompletedAt      int64             `json:"completedAt"`
	RetentionSeconds int64             `json:"retentionSeconds"`
	ResultBase64     *string           `json:"resultBase64"`
	Headers          map[string]string `json:"headers"`
	IsOrphaned       bool              `json:"isOrphaned"`
}

func toTaskJSON(t *asynq.TaskInfo) taskJSON {
	return taskJSON{
		ID:               t.ID,
		Queue:            t.Queue,
		Type:             t.Type,
		PayloadBase64:    b64(t.Payload),
		State:            t.State.String(),
		MaxRetry:         t.MaxRetry,
		Retried:          t.Retried,
		LastError:        t.LastErr,
		LastFailedAt:     unixOrZero(t.LastFailedAt),
		TimeoutSeconds:   int64(t.Timeout / time.Second),
		Deadline:         unixOrZero(t.Deadline),
		Group:            t.Group,
		NextProcessAt:    unixOrZero(t.NextProcessAt),
		CompletedAt:      unixOrZero(t.CompletedAt),
		RetentionSeconds: int64(t.Retention / time.Second),
		ResultBase64:     b64(t.Result),
		Headers:          infoHeaders(t),
		IsOrphaned:       t.IsOrphaned,
	}
}

// b64 keeps nil and empty distinct: nil -> JSON null, empty -> "".
// (Note: asynq's protobuf decoding turns an empty payload into nil, so tasks
// read back from Redis never show "" — that is Go's behaviour, reported as is.)
func b64(b []byte) *string {
	if b == nil {
		return nil
	}
	s := base64.StdEncoding.EncodeToString(b)
	return &s
}

func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}
