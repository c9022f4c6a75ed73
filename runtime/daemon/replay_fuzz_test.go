package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime"
)

// FuzzReplay replays arbitrary records, one per line, on a cluster, as a
// log with checksummed but wrong records would: each is applied or
// refused with an error, and nothing panics.
func FuzzReplay(f *testing.F) {
	dir := f.TempDir()
	files := map[string]string{
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nhostB ! ! 1 ()\nEnd Host\n",
		"lsb.hosts":        "Begin Host\nHOST_NAME MXJ EXIT_RATE\ndefault 4 2\nEnd Host\n",
		"lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nJOB_OVERRUN = 1\nJOB_IDLE = 0.5\nJOB_UNDERRUN = 1\nEnd Queue\n\n" +
			"Begin Queue\nQUEUE_NAME = high\nPRIORITY = 40\nPREEMPTION = PREEMPTIVE\nEnd Queue\n\n" +
			"Begin Queue\nQUEUE_NAME = send\nPRIORITY = 30\nSNDJOBS_TO = recv@peer\nEnd Queue\n",
		"lsf.shared": "Begin Cluster\nClusterName Servers\ntest (hostA)\npeer (peerhost)\nEnd Cluster\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	res, err := lint.Run([]string{dir}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		f.Fatalf("configuration: %v %v", err, res.Diagnostics.Err())
	}
	p := res.Policy
	for _, seed := range []string{
		`{"t":"new","at":1,"job":1,"image":{"ID":1,"Seq":0,"Sub":{"User":"u","Queue":"normal","Slots":2,"Command":"true"},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"start","at":2,"job":1,"allocs":[{"Host":"hostA","Slots":2}]}` + "\n" +
			`{"t":"suspend","at":3,"job":1,"reason":"The job was preempted by a job of a higher priority queue"}` + "\n" +
			`{"t":"resume","at":4,"job":1}` + "\n" + `{"t":"finish","at":5,"job":1,"state":"DONE"}`,
		`{"t":"job","image":{"ID":7,"Sub":{"Queue":"gone","Slots":-3},"State":"SSUSP","Reason":"The job was preempted by a job of a higher priority queue","Allocs":[{"Host":"nohost","Slots":1}]}}`,
		`{"t":"queue","queue":"normal","open":false}` + "\n" + `{"t":"host","host":"hostA","text":"closed_Adm"}` + "\n" + `{"t":"state","nextID":99}`,
		`{"t":"modify","job":1,"mod":{"Slots":-1}}`,
		`{"t":"jgroup-add","text":"/a/b","owner":"u","limit":2}` + "\n" + `{"t":"jgroup-add","text":"/a/b/c","limit":5}` + "\n" +
			`{"t":"new","at":1,"job":1,"image":{"ID":1,"Sub":{"User":"u","Queue":"normal","Command":"true","JobGroup":"/a/b/c"},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"jgroup-mod","text":"/a","limit":-4}` + "\n" + `{"t":"jgroup-del","text":"/a"}` + "\n" + `{"t":"jgroup-add","text":"bad//x","sla":"nosla"}`,
		`{"t":"array","image":{"ID":3,"Sub":{"Name":"a","User":"u","Queue":"normal","Command":"true","Array":"1-9:4,20","ArrayLimit":1},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"start","at":2,"job":21474836483,"allocs":[{"Host":"hostA","Slots":1}]}` + "\n" +
			`{"t":"array-limit","job":3,"code":2}` + "\n" + `{"t":"finish","at":5,"job":4294967299,"state":"EXIT","code":3}`,
		`{"t":"job","image":{"ID":8589934597,"Sub":{"Name":"b","User":"u","Queue":"normal","Command":"true","Array":"2-3"},"State":"DONE"}}`,
		`{"t":"requeue","job":1}`,
		`{"t":"new","at":1,"job":1,"image":{"ID":1,"Sub":{"User":"u","Queue":"normal","Slots":1,"MaxSlots":4,"AutoResize":true,"ResizeNotify":"n","Command":"true"},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"start","at":2,"job":1,"allocs":[{"Host":"hostA","Slots":1}]}` + "\n" +
			`{"t":"resize-grow","at":3,"job":1,"allocs":[{"Host":"hostA","Slots":2},{"Host":"hostB","Slots":1}],"notify":"n"}` + "\n" +
			`{"t":"resize-preempt","at":4,"job":1}` + "\n" +
			`{"t":"suspend","at":4,"job":1,"reason":"The job was preempted by a job of a higher priority queue"}` + "\n" +
			`{"t":"resize-notified","at":5,"job":1,"code":2}` + "\n" + `{"t":"resume","at":6,"job":1}` + "\n" +
			`{"t":"resize-request","job":1,"min":1,"max":2,"cancel":true}` + "\n" + `{"t":"resize-cancel","job":1}` + "\n" +
			`{"t":"resize-release","at":7,"job":1,"allocs":[{"Host":"hostA","Slots":-1}],"cancel":true}` + "\n" +
			`{"t":"resize-release","at":8,"job":1,"allocs":[{"Host":"hostA","Slots":1}],"notify":"n"}` + "\n" +
			`{"t":"finish","at":9,"job":1,"state":"DONE"}`,
		`{"t":"new","at":1,"job":1,"image":{"ID":1,"Sub":{"User":"u","Queue":"normal","Command":"true"},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"start","at":2,"job":1,"allocs":[{"Host":"hostB","Slots":1}]}` + "\n" +
			`{"t":"exception","at":70,"job":1,"text":"overrun"}` + "\n" + `{"t":"exception","at":71,"job":1,"text":"idle bogus"}` + "\n" +
			`{"t":"finish","at":72,"job":1,"state":"EXIT","code":1}` + "\n" + `{"t":"exception","at":73,"host":"hostB","text":"exit_rate"}`,
		`{"t":"exception","host":"nohost","text":"exit_rate"}` + "\n" + `{"t":"exception","host":"hostA","text":"overrun"}`,
		`{"t":"new","at":1,"job":1,"image":{"ID":1,"Sub":{"User":"u","Queue":"send","Command":"true"},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"forward","at":2,"job":1,"cluster":"peer","queue":"recv"}` + "\n" + `{"t":"accept","at":3,"job":1,"remote":5}` + "\n" +
			`{"t":"remote-start","at":4,"job":1,"hosts":["p1@peer"]}` + "\n" + `{"t":"remote-state","job":1,"state":"SSUSP"}` + "\n" +
			`{"t":"remote-state","job":1,"state":"DONE"}` + "\n" + `{"t":"remote-requeue","job":1}` + "\n" +
			`{"t":"remote-start","at":5,"job":1,"hosts":["p2@peer"]}` + "\n" + `{"t":"remote-finish","at":6,"job":1,"state":"DONE"}`,
		`{"t":"new","at":1,"job":2,"image":{"ID":2,"Sub":{"User":"u","Queue":"send","Command":"true"},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"forward","at":2,"job":2,"cluster":"peer","queue":"recv"}` + "\n" +
			`{"t":"return","job":2,"text":"recalled","reason":"The job was recalled from a remote cluster after MAX_RSCHED_TIME","state":"PEND"}` + "\n" +
			`{"t":"forward","at":3,"job":2,"cluster":"peer","queue":"recv"}` + "\n" + `{"t":"return","job":2,"text":"start failed","state":"PSUSP"}` + "\n" +
			`{"t":"return","job":2,"text":"bogus"}` + "\n" + `{"t":"remote-start","job":2}` + "\n" + `{"t":"release","job":2}`,
		`{"t":"job","image":{"ID":3,"Sub":{"Queue":"send","Home":{"Cluster":"peer","ID":9}},"State":"RUN","Remote":{"Cluster":"peer","Queue":"recv","ID":4,"Hosts":["x@peer"]}}}`,
		`{"t":"new","at":1,"job":1,"image":{"ID":1,"Sub":{"User":"u","Queue":"gone","Command":"true"},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"new","at":1,"job":2,"image":{"ID":2,"Sub":{"User":"u","Queue":"gone","Command":"true"},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"start","at":2,"job":2,"allocs":[{"Host":"hostA","Slots":1}]}` + "\n" + `{"t":"lost","at":3,"job":1}` + "\n" +
			`{"t":"lost","at":3,"job":2}` + "\n" + `{"t":"requeue","at":4,"job":2}` + "\n" + `{"t":"switch","at":5,"job":1,"queue":"normal"}` + "\n" +
			`{"t":"queue","queue":"lost_and_found","open":true,"active":true}`,
		`{"t":"job","image":{"ID":4,"Sub":{"User":"u","Queue":"gone","Command":"true"},"State":"EXIT","Allocs":[{"Host":"nohost","Slots":1}]}}` + "\n" +
			`{"t":"job","image":{"ID":5,"Sub":{"User":"u","Queue":"lost_and_found","Command":"true"},"State":"PSUSP"}}` + "\n" +
			`{"t":"switch","job":5,"queue":"gone"}` + "\n" + `{"t":"modify","job":5,"mod":{"Slots":2}}`,
		`{"t":"rsv-add","rsv":{"ID":"u#0","Creator":"u","Users":["u"],"Hosts":[{"Host":"hostA","Slots":2},{"Host":"nohost","Slots":1}],"Begin":10,"End":4000}}` + "\n" +
			`{"t":"new","at":1,"job":1,"image":{"ID":1,"Sub":{"User":"u","Queue":"normal","Command":"true","Reservation":"u#0"},"Submit":1,"State":"PEND"}}` + "\n" +
			`{"t":"rsv-add","rsv":{"ID":"w","Hosts":[{"Host":"hostB","Slots":-3}],"Window":{"from":{"day":9,"hour":30,"minute":0},"to":{"day":-1,"hour":2,"minute":0}}}}` + "\n" +
			`{"t":"rsv-del","text":"u#0"}` + "\n" + `{"t":"rsv-del","text":"nosuch"}` + "\n" + `{"t":"rsv-add"}`,
		`not json`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(s, "\n") {
			r, err := decode([]byte(line))
			if err != nil {
				continue
			}
			apply(c, r)
		}
		// What the daemon does once the log is replayed.
		c.MoveLost()
		// The state must still schedule.
		runtime.NewScheduler(runtime.DefaultPlugins()).Cycle(runtime.Snapshot{Cluster: c, Now: 10})
	})
}
