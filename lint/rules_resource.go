package lint

// resourceRules are the analyzers of resource requirements, memory and
// limits (LSF510–LSF519, and the pending job thresholds, LSF560).
func resourceRules() []*Analyzer {
	return []*Analyzer{
		resreqNever(), resreqNotOnQueueHosts(), unitlessMemory(), memlimitWithoutRusage(), rusageWithoutMemlimit(),
		runlimitBeyondWindow(), ptileExceedsSlots(), limitWithoutEffect(), zeroLimit(), percentLimitWithoutPerHost(),
		pendThresholdWithoutEffect(),
	}
}
