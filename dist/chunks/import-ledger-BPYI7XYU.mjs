import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{Ba as a,Ca as b,Da as c,Ea as d,Fa as e,Ga as f}from"./chunk-XH5YWI5H.mjs";import"./chunk-KEYSJ5T4.mjs";import"./chunk-GF4NPEC5.mjs";import"./chunk-ZC56W3P3.mjs";export{e as appendLedger,c as itemKey,a as ledgerFile,d as readLedger,b as sha256,f as sourcesNotImported};
