import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{Aa as a,Ba as b,Ca as c,Da as d,Ea as e,Fa as f}from"./chunk-P465JT5J.mjs";import"./chunk-3J7ZULVE.mjs";import"./chunk-EGKK2QVV.mjs";export{e as appendLedger,c as itemKey,a as ledgerFile,d as readLedger,b as sha256,f as sourcesNotImported};
