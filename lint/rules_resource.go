package lint

// resourceRules are the analyzers of resource requirements, memory and
// limits (LSF510–LSF519).
func resourceRules() []*Analyzer {
	return []*Analyzer{}
}
