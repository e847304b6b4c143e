package bench

import (
	"testing"

	"yarnplay/app"
)

// BenchmarkPaintNodes is the node canvas of benchmark 5's last step
// painted as the simulation's worker paints it after each reply
// (app.PaintNodes, 1280 CSS pixels wide), natively: milliseconds a
// picture.
func BenchmarkPaintNodes(b *testing.B) {
	s, _ := playgroundStore(b)
	s.Last()
	f := s.Frame()
	var buf []byte
	b.ResetTimer()
	for range b.N {
		buf, _, _ = app.PaintNodes(buf, f, 1280, false, "")
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms-paint")
}
