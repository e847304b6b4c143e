package app

// trimmedStates is what go-app's state functions panic with in yarnplay's
// browser build, which leaves them out (Context.SetState, GetState,
// ObserveState and DelState, with their persistence in localStorage, their
// broadcast to other tabs and the start's clean-up of expired states):
// yarnplay keeps its work through its own store (build/site/trims.go).
const trimmedStates = "go-app's states are left out of yarnplay's browser build (build/site/trims.go)"
