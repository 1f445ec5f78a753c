import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{Aa as c,Ba as d,Ca as e,Da as f,ya as a,za as b}from"./chunk-5C2Z4LU3.mjs";import"./chunk-3J7ZULVE.mjs";import"./chunk-ZJR45YZ6.mjs";export{e as appendLedger,c as itemKey,a as ledgerFile,d as readLedger,b as sha256,f as sourcesNotImported};
