import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{A as b,B as c,C as d,D as e,E as f,z as a}from"./chunk-IDV23HLU.mjs";import"./chunk-NEEXHSJE.mjs";import"./chunk-3J7ZULVE.mjs";import"./chunk-ZJR45YZ6.mjs";export{e as appendLedger,c as itemKey,a as ledgerFile,d as readLedger,b as sha256,f as sourcesNotImported};
