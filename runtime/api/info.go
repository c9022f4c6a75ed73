package api

import "context"

// An App is an application profile of lsb.applications as bapp shows it:
// its name and description, its unfinished jobs counted in slots by
// state, and the settings of the profile lsfc carries out.
type App struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	NJobs       int    `json:"njobs"`
	Pend        int    `json:"pend"`
	Run         int    `json:"run"`
	SSusp       int    `json:"ssusp"`
	USusp       int    `json:"ususp"`
	// Rsv is the slots the profile's pending jobs reserve.
	Rsv int `json:"rsv"`
	// Limits are the profile's resource usage limits, in the order bapp
	// -l shows them.
	Limits []QueueLimit `json:"limits,omitempty"`
	// ResReq is RES_REQ as written; GPUReq GPU_REQ.
	ResReq string `json:"resReq,omitempty"`
	GPUReq string `json:"gpuReq,omitempty"`
	// Params are the other parameters the profile sets, "KEY: value"
	// lines of bapp -l, in its order.
	Params []QueueParam `json:"params,omitempty"`
}

// ClusterInfo is what lsclusters and lsinfo show of the cluster: its
// name, master, administrators and hosts, the MultiCluster peers it
// knows, its resources, host types and host models.
type ClusterInfo struct {
	Cluster string   `json:"cluster"`
	Master  string   `json:"master"`
	Admins  []string `json:"admins,omitempty"`
	// Hosts counts the hosts of the cluster, Servers those that run
	// jobs (server hosts).
	Hosts   int `json:"hosts"`
	Servers int `json:"servers"`
	// Peers are the MultiCluster peers the configuration names (the
	// Cluster section of lsf.shared, the local cluster left out), with
	// whether the last exchange with each got an answer (Known false
	// when there has been none).
	Peers     []ClusterPeer  `json:"peers,omitempty"`
	Resources []ResourceInfo `json:"resources,omitempty"`
	HostTypes []string       `json:"hostTypes,omitempty"`
	// HostModels are the models of lsf.shared; InUse is set for those
	// a host of the cluster has.
	HostModels []HostModelInfo `json:"hostModels,omitempty"`
}

// A ClusterPeer is a MultiCluster peer as the local cluster knows it.
type ClusterPeer struct {
	Cluster string `json:"cluster"`
	// Servers are its master candidates as lsf.shared names them.
	Servers []string `json:"servers,omitempty"`
	Known   bool     `json:"known"`
	Up      bool     `json:"up"`
}

// A ResourceInfo is a resource as lsinfo shows it.
type ResourceInfo struct {
	Name string `json:"name"`
	// Type is Boolean, Numeric or String; Order Inc, Dec or N/A.
	Type        string `json:"type"`
	Order       string `json:"order"`
	Description string `json:"description,omitempty"`
	// Interval is lsf.shared's INTERVAL in seconds (0 for none).
	Interval   float64 `json:"interval,omitempty"`
	Builtin    bool    `json:"builtin,omitempty"`
	Dynamic    bool    `json:"dynamic,omitempty"`
	Consumable bool    `json:"consumable,omitempty"`
}

// A HostModelInfo is a host model of lsf.shared.
type HostModelInfo struct {
	Name         string   `json:"name"`
	CPUFactor    float64  `json:"cpuFactor"`
	Architecture []string `json:"architecture,omitempty"`
	InUse        bool     `json:"inUse,omitempty"`
}

// Apps returns the application profiles (bapp).
func (c *Client) Apps(ctx context.Context) ([]App, error) {
	var out []App
	if err := c.do(ctx, "GET", "/v1/apps", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ClusterInfo returns the cluster's description (lsclusters, lsinfo).
func (c *Client) ClusterInfo(ctx context.Context) (*ClusterInfo, error) {
	var out ClusterInfo
	if err := c.do(ctx, "GET", "/v1/cluster", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
