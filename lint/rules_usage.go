package lint

// usageRules are the analyzers of definitions and references across the
// tree: unused definitions, defaults, windows, host names (LSF520–LSF539).
func usageRules() []*Analyzer {
	return []*Analyzer{}
}
