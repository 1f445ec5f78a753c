import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{G as a,H as b,I as c,J as d,K as e,L as f}from"./chunk-LGPAYT3I.mjs";import"./chunk-ELHY7VFU.mjs";import"./chunk-KEYSJ5T4.mjs";import"./chunk-GF4NPEC5.mjs";import"./chunk-ZC56W3P3.mjs";export{e as appendLedger,c as itemKey,a as ledgerFile,d as readLedger,b as sha256,f as sourcesNotImported};
