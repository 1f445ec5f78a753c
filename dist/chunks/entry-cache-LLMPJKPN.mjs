import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a}from"./chunk-W6M7YAGG.mjs";import"./chunk-ACG7YNB2.mjs";import"./chunk-ZVCJZRU7.mjs";import"./chunk-3J7ZULVE.mjs";import"./chunk-ZC56W3P3.mjs";export{a as roleSummaries};
