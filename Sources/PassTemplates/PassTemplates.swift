// PassTemplates
