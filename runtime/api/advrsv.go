package api

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// An RsvRequest asks for a change of advance reservations: Op "add"
// (brsvadd), "del" (brsvdel: IDs), "mod" (brsvmod: ID and the changes).
//
// For "add": Slots on Hosts (names or host groups, in the order the slots
// are taken from them) or on the hosts ResReq selects, for Users (user
// names or user groups) or, with System, for no one (a system
// reservation); one-time from Begin to End (Unix seconds), or recurring
// in Window (brsvadd -t, as ParseRsvWindow reads it). Name is -N, Open -o,
// Desc -d; with UnitHost (-unit host), Slots counts whole hosts.
//
// For "mod": the fields set change: Begin or End (-b, -e, absolute), Window
// (-t), Users (-u), Open (-o, with SetOpen), Desc (-d); AddSlots adds
// slots on Hosts (brsvmod addhost), RemoveHosts drops hosts (rmhost).
type RsvRequest struct {
	Op          string   `json:"op"`
	IDs         []string `json:"ids,omitempty"`
	Name        string   `json:"name,omitempty"`
	Slots       int      `json:"slots,omitempty"`
	UnitHost    bool     `json:"unitHost,omitempty"`
	Hosts       []string `json:"hosts,omitempty"`
	ResReq      string   `json:"resreq,omitempty"`
	Users       []string `json:"users,omitempty"`
	System      bool     `json:"system,omitempty"`
	Open        bool     `json:"open,omitempty"`
	SetOpen     bool     `json:"setOpen,omitempty"`
	Begin       int64    `json:"begin,omitempty"`
	End         int64    `json:"end,omitempty"`
	Window      string   `json:"window,omitempty"`
	Desc        string   `json:"desc,omitempty"`
	AddSlots    int      `json:"addSlots,omitempty"`
	RemoveHosts []string `json:"removeHosts,omitempty"`
}

// An Rsv is one advance reservation as brsvs shows it.
type Rsv struct {
	ID      string `json:"id"`
	Creator string `json:"creator"`
	// Type is "user" or "sys"; Open tells an open reservation.
	Type string `json:"type"`
	Open bool   `json:"open,omitempty"`
	// Users are the users and user groups it is for.
	Users []string `json:"users,omitempty"`
	// Hosts are the hosts and slots it holds, with the slots its running
	// jobs use there now.
	Hosts []RsvHost `json:"hosts"`
	// Begin and End are a one-time reservation's; Window a recurring
	// one's, as LSF writes a time window. Active tells whether it is
	// active now; Next is when it next begins (or, when active, ends).
	Begin  int64  `json:"begin,omitempty"`
	End    int64  `json:"end,omitempty"`
	Window string `json:"window,omitempty"`
	Active bool   `json:"active"`
	Next   int64  `json:"next,omitempty"`
	Desc   string `json:"desc,omitempty"`
	// Jobs are the unfinished jobs that use it.
	Jobs []string `json:"jobs,omitempty"`
}

// An RsvHost is the slots a reservation holds on a host.
type RsvHost struct {
	Host  string `json:"host"`
	Slots int    `json:"slots"`
	Used  int    `json:"used"`
}

// An RsvPolicy is a ResourceReservation policy of lsb.resources, as
// brsvs -c shows it: who may make reservations, on which hosts, when.
type RsvPolicy struct {
	Name   string   `json:"name"`
	Users  []string `json:"users,omitempty"`
	Hosts  []string `json:"hosts,omitempty"`
	Window []string `json:"window,omitempty"`
}

// ReservationPolicies returns the advance reservation policies (brsvs -c).
func (c *Client) ReservationPolicies(ctx context.Context) ([]RsvPolicy, error) {
	var out []RsvPolicy
	if err := c.do(ctx, "GET", "/v1/reservations/policies", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Reservations returns the advance reservations (brsvs).
func (c *Client) Reservations(ctx context.Context) ([]Rsv, error) {
	var out []Rsv
	if err := c.do(ctx, "GET", "/v1/reservations", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ChangeReservations adds, deletes or modifies advance reservations
// (brsvadd, brsvdel, brsvmod).
func (c *Client) ChangeReservations(ctx context.Context, req RsvRequest) (*ActionResponse, error) {
	var out ActionResponse
	if err := c.do(ctx, "POST", "/v1/reservations", nil, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// An RsvClock is one end of a recurring reservation's window: Day 0
// (Sunday) to 6, or -1 for every day; Hour 0 to 23; Minute 0 to 59.
type RsvClock struct {
	Day, Hour, Minute int
}

// ParseRsvWindow reads the time window of brsvadd -t:
// [day:]hour[:minute]-[day:]hour[:minute], both ends written the same way
// (hour, hour:minute or day:hour:minute); days run 0 (Sunday) to 6.
// A window without days recurs daily, one with days weekly. A window may
// wrap past midnight (or the week's end), but not be empty.
func ParseRsvWindow(s string) (from, to RsvClock, err error) {
	bad := func(why string) error {
		return fmt.Errorf("%s: Bad time specification (%s)", strconv.Quote(s), why)
	}
	a, b, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		return from, to, bad("want [day:]hour[:minute]-[day:]hour[:minute]")
	}
	if strings.Count(a, ":") != strings.Count(b, ":") {
		return from, to, bad("write both ends the same way: hour, hour:minute or day:hour:minute")
	}
	if from, err = parseRsvClock(a); err != nil {
		return from, to, bad(err.Error())
	}
	if to, err = parseRsvClock(b); err != nil {
		return from, to, bad(err.Error())
	}
	if from == to {
		return from, to, bad("the window is empty")
	}
	return from, to, nil
}

// parseRsvClock reads [day:]hour[:minute].
func parseRsvClock(s string) (RsvClock, error) {
	parts := strings.Split(s, ":")
	if s == "" || len(parts) > 3 {
		return RsvClock{}, fmt.Errorf("%q is not [day:]hour[:minute]", s)
	}
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || p == "" || p[0] == '+' || p[0] == '-' || len(p) > 2 {
			return RsvClock{}, fmt.Errorf("%q is not a number", p)
		}
		nums[i] = n
	}
	c := RsvClock{Day: -1}
	switch len(nums) {
	case 1:
		c.Hour = nums[0]
	case 2:
		c.Hour, c.Minute = nums[0], nums[1]
	case 3:
		c.Day, c.Hour, c.Minute = nums[0], nums[1], nums[2]
	}
	switch {
	case c.Day > 6:
		return c, fmt.Errorf("day must be 0-6 (0 is Sunday)")
	case c.Hour > 23:
		return c, fmt.Errorf("hour must be 0-23")
	case c.Minute > 59:
		return c, fmt.Errorf("minute must be 0-59")
	}
	return c, nil
}

// FormatRsvWindow writes a window as brsvs shows it.
func FormatRsvWindow(from, to RsvClock) string {
	clock := func(c RsvClock) string {
		if c.Day >= 0 {
			return fmt.Sprintf("%d:%d:%d", c.Day, c.Hour, c.Minute)
		}
		return fmt.Sprintf("%d:%d", c.Hour, c.Minute)
	}
	return clock(from) + "-" + clock(to)
}
