package lint

// policyRules are the analyzers of queues, preemption, thresholds and slot
// pools (LSF501–LSF509).
func policyRules() []*Analyzer {
	return []*Analyzer{
		queueNoUsers(), queueNoHosts(), preemptCycle(), preemptNothingBelow(), preemptNothingAbove(),
		preemptPriority(), thresholdInverted(), thresholdNever(), poolPriorities(),
	}
}
