import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-SWUG7IT7.mjs";import"./chunk-ZC56W3P3.mjs";export{a as claudeProcessId,b as processAlive};
