package app

import (
	"strconv"

	"yarnplay/app/store"
)

// Page-wide settings shared by the handler and the components.
const (
	// Name is the product's name.
	Name = "yarnplay"
	// Title is the HTML title of the pages.
	Title = "yarnplay: the YARN Capacity Scheduler in your browser"
	// Description is the page's meta description.
	Description = "A playground for the Apache Hadoop YARN Capacity Scheduler: " +
		"queues, capacities and every scheduling decision, computed in your browser."
	// StylesheetPath is the playground's stylesheet, served from web/app.css.
	StylesheetPath = "/web/app.css"
	// IconPath is the playground's icon, served from web/icon.svg.
	IconPath = "/web/icon.svg"
)

// wasmPreload starts downloading app.wasm as soon as the head is read,
// while the pre-rendered body is parsed and painted (go-app's loader asks
// for it only once the page is parsed); the loader's fetch then gets the
// preloaded response. prefix is the path the site is served under.
func wasmPreload(prefix string) string {
	return `<link rel="preload" href="` + prefix + `/web/app.wasm" as="fetch" type="application/wasm" crossorigin>`
}

// OwnWorkClass marks the document (on <html>) when the page will open the
// visitor's own work rather than the lesson it was pre-rendered with: the
// stylesheet then hides the pre-rendered lesson, which is not theirs.
const OwnWorkClass = "own-work"

// OwnWorkScript runs in every page's head, before the body is parsed. It
// asks what Page.Load will: does the fragment carry a share link, or does
// localStorage keep work this route restores (any on /, the lesson's own
// on its page, under whatever path the site is served)? If so it adds OwnWorkClass to <html>.
var OwnWorkScript = `<script>(function(){try{` +
	`var own=location.hash.indexOf("s=")>=0;` +
	`if(!own){var p=location.pathname,pre=` + strconv.Quote(lessonPrefix) + `,i=p.indexOf(pre),` +
	`slug=i>=0?p.slice(i+pre.length).replace(/^\/+|\/+$/g,""):"",w=null;` +
	`try{w=JSON.parse(localStorage.getItem(` + strconv.Quote(store.SaveKey) + `))}catch(e){}` +
	`own=!!w&&w.v===1&&(slug===""||(w.lesson||"")===slug)}` +
	`if(own)document.documentElement.classList.add(` + strconv.Quote(OwnWorkClass) + `)` +
	`}catch(e){}})()</script>`

// noScriptStyle applies when scripts do not run: go-app's loader goes
// (nothing will load) and the pre-rendered page says why it stays inert.
const noScriptStyle = `<noscript><style>#app-wasm-loader{display:none}.prerender-status .when-noscript{display:block}</style></noscript>`
