package lang

import (
	"slices"
	"strings"
)

// Suggest returns the candidate closest to word, ignoring case, when it is
// close enough to be a likely misspelling: an edit distance of at most
// (len(word)+1)/3, and at least 1. Otherwise it returns "". Ties go to the
// first candidate in sorted order, so the answer does not depend on the
// order of candidates.
func Suggest(word string, candidates []string) string {
	w := strings.ToLower(word)
	limit := max(1, (len(w)+1)/3)
	best, bestDist := "", limit+1
	sorted := slices.Clone(candidates)
	slices.Sort(sorted)
	for _, c := range sorted {
		if c == word {
			continue
		}
		d := editDistance(w, strings.ToLower(c), bestDist)
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance returns the Levenshtein distance of a and b (transpositions
// count as one edit), or a value >= limit when it is at least limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
