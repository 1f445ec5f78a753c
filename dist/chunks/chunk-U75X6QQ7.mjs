import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{k as c,n as s}from"./chunk-ZVCJZRU7.mjs";import{existsSync as n}from"node:fs";import{join as u}from"node:path";var f=".claude/echoes/";function g(e,o){let t=e??"",r=/^[ \t]*\.claude\/echoes\/[ \t]*\r?$/m.test(t);if(!o&&!r){let i=t.includes(`\r
`)?`\r
`:`
`,l=t===""||t.endsWith(`
`)?"":i;return`${t}${l}${f}${i}`}return o&&r?t.replace(/^[ \t]*\.claude\/echoes\/[ \t]*(\r?\n|\r?$)/gm,""):null}function a(e,o){let t=g(s(e.gitignore),o);return t===null?!1:(c(e,e.gitignore,t),!0)}function d(e,o){if(n(e.echoes))return;(n(u(e.project,".git"))||n(e.gitignore))&&a(e,o)}export{a,d as b};
