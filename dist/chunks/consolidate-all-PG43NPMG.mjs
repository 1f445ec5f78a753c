import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a}from"./chunk-ANEFLGCB.mjs";import"./chunk-LKX6CSIC.mjs";import"./chunk-FA6K4AS3.mjs";import"./chunk-CD6M3H43.mjs";import"./chunk-5WVTRBD3.mjs";import"./chunk-ZC56W3P3.mjs";export{a as consolidateAll};
