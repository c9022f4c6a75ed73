package lang

import "strings"

// Suggest returns the candidate closest to word, ignoring case, when it is
// close enough to be a likely misspelling: an edit distance of at most
// (len(word)+1)/3, and at least 1. Otherwise, or when two candidates are
// equally close (the guess would be a coin toss), it returns "".
func Suggest(word string, candidates []string) string {
	w := strings.ToLower(word)
	limit := max(1, (len(w)+1)/3)
	best, bestDist, ties := "", limit+1, 0
	for _, c := range candidates {
		if c == word || c == best {
			continue
		}
		// With bestDist+1 as the bound, distances up to bestDist are exact.
		switch d := editDistance(w, strings.ToLower(c), bestDist+1); {
		case d < bestDist:
			best, bestDist, ties = c, d, 1
		case d == bestDist:
			ties++
		}
	}
	if ties != 1 {
		return ""
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
