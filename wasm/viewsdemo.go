//go:build viewsdemo

package main

import "yarnplay/app/viewsdemo"

// The views' test page, only in builds tagged viewsdemo (the browser tests
// of build/browsertest build one); the playground never ships it.
func init() { viewsdemo.Register() }
