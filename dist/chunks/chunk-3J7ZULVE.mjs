import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var r=class extends Error{code;constructor(e,o){super(o),this.name="EchoesError",this.code=e}};export{r as a};
